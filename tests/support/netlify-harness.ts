/**
 * Runs bundled Netlify functions (zip-it-and-ship-it output, unpacked) in a
 * fresh Node process, as the platform would import them, and prints what
 * they answered as JSON. Usage: node netlify-harness.ts <bundle-dir>
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.argv[2] as string;
const origin = 'https://www.ceibacasas.mx';
type Handler = (
  request: Request,
  context: { ip: string; requestId: string; waitUntil(promise: Promise<unknown>): void },
) => Promise<Response>;

/** What the functions asked to finish after answering (Netlify's `context.waitUntil`). */
const afterAnswers: Promise<unknown>[] = [];

async function fn(name: string): Promise<Handler> {
  const module = await import(pathToFileURL(path.join(dir, name, 'netlify/functions', `${name}.mjs`)).href);
  return module.default as Handler;
}

async function call(name: string, url: string, init: RequestInit = {}) {
  const response = await (await fn(name))(new Request(origin + url, init), {
    ip: '203.0.113.9',
    requestId: `bundle-${name}`,
    waitUntil: (promise) => afterAnswers.push(promise),
  });
  const text = await response.text();
  return {
    status: response.status,
    cookie: response.headers.get('set-cookie'),
    body: text.startsWith('{') ? JSON.parse(text) : text,
  };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: origin, ...headers },
  body: JSON.stringify(body),
});

const quickQuote = await call(
  'quick-quotes',
  '/api/quick-quotes',
  json({ name: 'Desde el paquete', phone: '999 123 4567' }),
);
const partner = await call(
  'partner-applications',
  '/api/partner-applications',
  json({
    name: 'Socio del paquete',
    phone: '9991234567',
    role: 'inversionista',
    municipality: 'Mérida',
    investment: '2-5m',
    timeline: '3-6-meses',
    legal_documentation: 'si',
    consultancy_payment: 'si',
  }),
);
const setup = await call(
  'auth-setup',
  '/api/auth/setup',
  json({ email: 'paquete@ceiba.mx', password: 'contraseña-segura' }),
);
const cookie = (setup.cookie ?? '').split(';')[0] ?? '';
const list = await call('admin-leads', '/api/admin/quick-quotes', { headers: { Cookie: cookie } });
const refused = await call('admin-leads', '/api/admin/quick-quotes');

await Promise.all(afterAnswers);
// The scheduled drain, invoked the way Netlify's scheduler does.
const drain = await call('notifications-drain', '/.netlify/functions/notifications-drain', {
  method: 'POST',
  headers: { 'User-Agent': 'Netlify Clockwork', 'X-Nf-Event': 'schedule' },
  body: JSON.stringify({ next_run: new Date(Date.now() + 60_000).toISOString() }),
});

console.log(
  JSON.stringify({
    quickQuote,
    partner,
    setup: { status: setup.status },
    list,
    refused,
    afterAnswers: afterAnswers.length,
    drain: { status: drain.status },
  }),
);
