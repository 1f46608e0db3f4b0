import { randomUUID } from 'node:crypto';
import { logJson } from '../log.ts';

type AnyHandler = (request: Request, context: never) => Promise<Response>;

/**
 * Wraps a function's handler: one JSON line per call with the request id,
 * the function, the method, the status and the duration in milliseconds.
 */
export function logged<H extends AnyHandler>(name: string, handler: H): H {
  return (async (request: Request, context: { requestId?: string } | undefined) => {
    const started = performance.now();
    const requestId = context?.requestId ?? request.headers.get('x-nf-request-id') ?? randomUUID();
    let status = 500;
    try {
      const response = await handler(request, context as never);
      status = response.status;
      return response;
    } finally {
      logJson(status >= 500 ? 'error' : 'info', {
        requestId,
        function: name,
        method: request.method,
        path: new URL(request.url).pathname,
        status,
        durationMs: Math.round(performance.now() - started),
      });
    }
  }) as unknown as H;
}
