import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A fake of Stripe's API on 127.0.0.1 (we cannot call Stripe from here),
 * answering what the official SDK sends (form-encoded bodies, Bearer key,
 * Idempotency-Key) with the documented objects' fields our code reads:
 * - POST /v1/customers: a customer `cus_…`;
 * - POST /v1/checkout/sessions: an open session `cs_test_…` with its hosted
 *   `url`; the same Idempotency-Key answers the same session, as Stripe does;
 * - GET /v1/checkout/sessions/:id, POST /v1/checkout/sessions/:id/expire;
 * - GET /v1/payment_intents/:id, POST /v1/payment_intents/:id/cancel;
 * - POST /v1/refunds: a refund `re_…`, succeeded.
 * And the webhook's events, built as Stripe's envelope and signed with the
 * SDK's own test helper (generateTestHeaderStringAsync), for the server's
 * `/api/pagos/stripe/webhook`.
 */

export const STRIPE_KEY = 'sk_test_fakeKeyForTheSuite0123';
export const WEBHOOK_SECRET = 'whsec_fakeSecretForTheSuite0123';

export interface StripeCall {
  method: string;
  path: string;
  /** The form body, flattened as sent: `metadata[appointment_id]` → value. */
  body: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

export interface FakeStripe {
  url: string;
  calls: StripeCall[];
  /** The sessions created, by id. */
  sessions: Map<string, Record<string, unknown>>;
  /** What GET /v1/payment_intents/:id answers as its status (default requires_action). */
  intentStatus: Map<string, string>;
  /** The next session creations fail with this HTTP status (a Stripe outage). */
  failNext(status: number, times?: number): void;
  /**
   * Refunds asked from now on get no answer (Stripe hanging) until `release`; `open()` counts those held
   * whose caller still waits (one that gave up at its timeout closed its connection).
   */
  holdRefunds(): { open(): number; release(): void };
  close(): Promise<void>;
}

export function stripeEnv(fake: FakeStripe): Record<string, string> {
  return { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url };
}

async function formOf(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/**
 * `port`: the one the server under test was given (the browser stories);
 * `webhookUrl`: where the fake's own hosted page sends its signed event when
 * the buyer presses «Pagar» there (a session's `url` is then that page on
 * 127.0.0.1 instead of checkout.stripe.com, which the machine cannot reach).
 */
export async function startFakeStripe(options: { port?: number; webhookUrl?: string } = {}): Promise<FakeStripe> {
  const calls: StripeCall[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, Record<string, unknown>>();
  const intentStatus = new Map<string, string>();
  let counter = 0;
  let failures: { status: number; times: number } | null = null;
  let held: Set<() => void> | null = null;
  let base = '';
  const server = createServer(async (request, response) => {
    const body = await formOf(request);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const hosted = /^\/c\/pay\/([A-Za-z0-9_]+)$/.exec(path);
    if (hosted?.[1] && options.webhookUrl) {
      const session = sessions.get(hosted[1]);
      if (!session) {
        response.writeHead(404).end();
        return;
      }
      if (request.method === 'POST') {
        // The buyer paid by card on "Stripe's" page: Stripe tells the webhook, then sends them back.
        const paid = { ...session, status: 'complete', payment_status: 'paid', payment_intent: `pi_${hosted[1]}` };
        await sendEvent(new URL(options.webhookUrl).origin, stripeEvent('checkout.session.completed', paid));
        response.writeHead(303, { Location: String(session.success_url) }).end();
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="es"><meta name="viewport" content="width=device-width"><title>Stripe (simulado)</title>` +
          `<main><h1>Pago simulado de Stripe</h1><p>${Number(session.amount_total) / 100} MXN</p>` +
          `<form method="post"><button type="submit">Pagar con tarjeta</button></form></main></html>`,
      );
      return;
    }
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    calls.push({
      method: request.method ?? '',
      path,
      body,
      idempotencyKey,
      authorization: request.headers.authorization,
    });
    const answer = (status: number, value: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${counter}` });
      response.end(JSON.stringify(value));
    };
    if (request.headers.authorization !== `Bearer ${STRIPE_KEY}`) {
      answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      return;
    }
    counter += 1;
    if (request.method === 'POST' && path === '/v1/customers') {
      answer(200, { id: `cus_fake${counter}`, object: 'customer', name: body.name ?? null });
      return;
    }
    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      if (failures && failures.times > 0) {
        failures.times -= 1;
        answer(failures.status, { error: { type: 'api_error', message: 'Something went wrong on Stripe’s end.' } });
        return;
      }
      const known = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
      if (known) {
        answer(200, known);
        return;
      }
      const id = `cs_test_fake${counter}${Math.random().toString(36).slice(2, 10)}`;
      const session = {
        id,
        object: 'checkout.session',
        url: options.webhookUrl ? `${base}/c/pay/${id}` : `https://checkout.stripe.com/c/pay/${id}`,
        success_url: body.success_url,
        status: 'open',
        payment_status: 'unpaid',
        mode: body.mode,
        currency: body.currency,
        amount_total: Number(body['line_items[0][price_data][unit_amount]']),
        client_reference_id: body.client_reference_id,
        metadata: { appointment_id: body['metadata[appointment_id]'], contact_id: body['metadata[contact_id]'] },
        expires_at: Number(body.expires_at),
        payment_intent: null,
        livemode: false,
      };
      sessions.set(id, session);
      if (idempotencyKey) byKey.set(idempotencyKey, session);
      answer(200, session);
      return;
    }
    const retrieving = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && retrieving?.[1]) {
      const session = sessions.get(retrieving[1]);
      if (session) answer(200, session);
      else
        answer(404, {
          error: { type: 'invalid_request_error', message: `No such checkout.session: '${retrieving[1]}'` },
        });
      return;
    }
    // Expire a session (Stripe's API reference): only an open one; a completed one is refused with a 400.
    const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (request.method === 'POST' && expiring?.[1]) {
      const session = sessions.get(expiring[1]);
      if (!session) {
        answer(404, {
          error: { type: 'invalid_request_error', message: `No such checkout.session: '${expiring[1]}'` },
        });
      } else if (session.status !== 'open') {
        answer(400, {
          error: {
            type: 'invalid_request_error',
            message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          },
        });
      } else {
        session.status = 'expired';
        answer(200, session);
      }
      return;
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path);
    if (intent?.[1]) {
      if (request.method === 'POST' && intent[2]) intentStatus.set(intent[1], 'canceled');
      answer(200, {
        id: intent[1],
        object: 'payment_intent',
        status: intentStatus.get(intent[1]) ?? 'requires_action',
      });
      return;
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      const refund = {
        id: `re_fake${counter}`,
        object: 'refund',
        status: 'succeeded',
        payment_intent: body.payment_intent,
        amount: body.amount ? Number(body.amount) : null,
      };
      if (held) {
        const waiting = held;
        const release = () => waiting.delete(release) && !response.writableEnded && answer(200, refund);
        waiting.add(release);
        response.once('close', () => waiting.delete(release));
        return;
      }
      answer(200, refund);
      return;
    }
    answer(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    sessions,
    intentStatus,
    failNext(status, times = 1) {
      failures = { status, times };
    },
    holdRefunds() {
      const waiting = new Set<() => void>();
      held = waiting;
      return {
        open: () => waiting.size,
        release() {
          held = null;
          for (const release of [...waiting]) release();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let eventCounter = 0;

/** A Stripe event envelope of `type` around `object`, as the webhook receives it (test mode). */
export function stripeEvent(type: string, object: Record<string, unknown>, id?: string): Record<string, unknown> {
  eventCounter += 1;
  return {
    id: id ?? `evt_fake${Date.now()}${eventCounter}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

const signer = new Stripe(STRIPE_KEY, { telemetry: false });

/** The Stripe-Signature of `payload`, by the SDK's own helper (`timestamp` in seconds: now unless given). */
export function signatureOf(payload: string, timestamp?: number): Promise<string> {
  return signer.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, timestamp });
}

/** POSTs `event` to the server's webhook, signed as Stripe signs it (or with `signature` instead). */
export async function sendEvent(
  serverUrl: string,
  event: Record<string, unknown>,
  signature?: string,
): Promise<Response> {
  const payload = JSON.stringify(event);
  const header = signature ?? (await signatureOf(payload));
  return fetch(`${serverUrl}/api/pagos/stripe/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
    body: payload,
  });
}
