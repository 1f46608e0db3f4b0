import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { until, untilValue } from './until.ts';

/**
 * The receivers of the notifications, real servers on 127.0.0.1: an SMTP
 * server (smtp-server, parsed with mailparser), a webhook receiver that
 * checks the signature the way docs/webhook.md tells integrators to, and a
 * fake of the WhatsApp Cloud API endpoint written from Meta's documented
 * request and answer (we cannot call Meta from here).
 */

export interface SmtpReceiver {
  url: string;
  messages: ParsedMail[];
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** The first e-mail that `match` accepts, once it has arrived. */
  waitForMail(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** `delayMs`: how long the server waits before accepting each message (a slow provider). */
export async function startSmtpReceiver({ delayMs = 0 } = {}): Promise<SmtpReceiver> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        async (mail) => {
          if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
          messages.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor: async (count, timeoutMs = 20_000) => {
      await until(
        () => messages.length >= count,
        () => `${count} e-mails (got ${messages.length})`,
        timeoutMs,
      );
      return messages;
    },
    waitForMail: mailWaiter(messages),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Waits for the first of `messages` that `match` accepts. */
const mailWaiter =
  (messages: ParsedMail[]) =>
  async (match: (mail: ParsedMail) => boolean, timeoutMs = 20_000): Promise<ParsedMail> =>
    (await untilValue(
      () => messages.find(match),
      (mail) => mail !== undefined,
      'the e-mail',
      { timeoutMs },
    )) as ParsedMail;

export interface HeldSmtpReceiver {
  url: string;
  messages: ParsedMail[];
  /** The first accepted e-mail that `match` accepts, once it has arrived. */
  waitForMail(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Messages inside DATA right now, waiting for `open()`. */
  waiting(): number;
  /** Those messages themselves (other e-mails of the file may be held beside the one a test awaits). */
  held(): ParsedMail[];
  /** From now on each message waits inside DATA, unanswered (the client waits until its own timeout). */
  hold(): void;
  /** Accepts the held messages, and every one after, until the next `hold()`. */
  open(): void;
  /** Turns the next `count` messages away with a temporary failure (451). */
  refuse(count: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server whose answers the test controls: a mail provider that
 * hangs (`hold`) or refuses for a while (`refuse`). `held`: hold from the start.
 */
export async function startHeldSmtpReceiver({ held = false } = {}): Promise<HeldSmtpReceiver> {
  const messages: ParsedMail[] = [];
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  let refusals = 0;
  const holding: ParsedMail[] = [];
  const hold = () => {
    gate = new Promise((resolve) => {
      release = resolve;
    });
  };
  if (held) hold();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(async (mail) => {
        if (refusals > 0) {
          refusals -= 1;
          callback(Object.assign(new Error('Servicio no disponible, intente más tarde'), { responseCode: 451 }));
          return;
        }
        holding.push(mail);
        await gate;
        holding.splice(holding.indexOf(mail), 1);
        messages.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail: mailWaiter(messages),
    waiting: () => holding.length,
    held: () => [...holding],
    hold,
    open: () => release(),
    refuse(count) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedRequest {
  headers: IncomingMessage['headers'];
  body: string;
  json: Record<string, unknown>;
}

interface HttpReceiver {
  url: string;
  /** Every request answered 2xx. */
  accepted: ReceivedRequest[];
  /** Requests refused (bad signature or token, or while failing on purpose). */
  refused: ReceivedRequest[];
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Stops listening (connections are refused) until `up()`, on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Answer 500 to everything (true) or normally (false). */
  failing(value: boolean): void;
  /** Wait this long before answering each request. */
  delay(ms: number): void;
  /** The most requests it has been answering at one moment. */
  mostAtOnce(): number;
  close(): Promise<void>;
}

async function startHttpReceiver(
  check: (request: ReceivedRequest, url: string) => { status: number; body: unknown },
  listenPort = 0,
): Promise<HttpReceiver> {
  const accepted: ReceivedRequest[] = [];
  const refused: ReceivedRequest[] = [];
  let failing = false;
  let delayMs = 0;
  let inFlight = 0;
  let mostAtOnce = 0;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    mostAtOnce = Math.max(mostAtOnce, inFlight);
    response.on('close', () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {}
      const received = { headers: request.headers, body, json: parsed };
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const answer = failing
        ? { status: 500, body: { error: 'caído a propósito' } }
        : check(received, request.url ?? '');
      (answer.status < 300 ? accepted : refused).push(received);
      response.writeHead(answer.status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  };
  let server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    refused,
    waitFor: async (count, timeoutMs = 20_000) => {
      await until(
        () => accepted.length >= count,
        () => `${count} requests (got ${accepted.length})`,
        timeoutMs,
      );
      return accepted;
    },
    down: close,
    async up() {
      server = createServer(handle);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    failing: (value) => {
      failing = value;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    mostAtOnce: () => mostAtOnce,
    close: () => (server.listening ? close() : Promise.resolve()),
  };
}

/** What an integrator does with our webhook (docs/webhook.md): recompute the HMAC, check the timestamp. */
export function verifyWebhook(secret: string, headers: IncomingMessage['headers'], body: string): boolean {
  const timestamp = String(headers['x-ceiba-timestamp'] ?? '');
  const signature = String(headers['x-ceiba-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

export function startWebhookReceiver(secret: string, port = 0): Promise<HttpReceiver> {
  return startHttpReceiver(
    (request) =>
      verifyWebhook(secret, request.headers, request.body)
        ? { status: 200, body: { ok: true } }
        : { status: 401, body: { error: 'firma no válida' } },
    port,
  );
}

/**
 * The WhatsApp Cloud API's messages endpoint as Meta documents it:
 * POST /{version}/{phone-number-id}/messages with a Bearer token and a
 * template message; 200 `{messaging_product, contacts, messages:[{id}]}`, or
 * an error object `{error:{message,type,code,fbtrace_id}}`.
 */
export function startWhatsappFake(token: string, phoneNumberId: string): Promise<HttpReceiver> {
  let sequence = 0;
  const error = (status: number, code: number, message: string) => ({
    status,
    body: { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf123' } },
  });
  return startHttpReceiver((request, url) => {
    if (!new RegExp(`^/v\\d+\\.\\d+/${phoneNumberId}/messages$`).test(url))
      return error(400, 100, 'Unsupported post request');
    if (request.headers.authorization !== `Bearer ${token}`) return error(401, 190, 'Invalid OAuth access token.');
    const body = request.json as {
      messaging_product?: string;
      to?: string;
      type?: string;
      template?: {
        name?: string;
        language?: { code?: string };
        components?: { type: string; parameters: { type: string; text: string }[] }[];
      };
    };
    const parameters = body.template?.components?.[0]?.parameters ?? [];
    const valid =
      body.messaging_product === 'whatsapp' &&
      /^\d{10,15}$/.test(body.to ?? '') &&
      body.type === 'template' &&
      Boolean(body.template?.name) &&
      Boolean(body.template?.language?.code) &&
      parameters.every(
        (parameter) => parameter.type === 'text' && parameter.text && !/[\n\t]| {5,}/.test(parameter.text),
      );
    if (!valid)
      return error(400, 132000, '(#132000) Number of parameters does not match the expected number of params');
    sequence += 1;
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.TEST${String(sequence).padStart(6, '0')}`, message_status: 'accepted' }],
      },
    };
  });
}

export type { HttpReceiver };
