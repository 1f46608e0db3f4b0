import { createHash, randomBytes } from 'node:crypto';
import type * as z from 'zod/mini';
import type { EndpointMessages } from '../../lib/forms/definition.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { HONEYPOT_FIELD } from '../../lib/forms/fields.ts';
import { getConfig } from '../config.ts';
import { type Database, withDatabase } from '../db/database.ts';
import { hitRateLimit } from '../leads/rate-limit.ts';
import {
  type Idempotency,
  IdempotencyConflict,
  type LeadClient,
  RateLimited,
  type RateLimitHit,
  type StoredLead,
} from '../leads/repository.ts';
import { logJson } from '../log.ts';
import { deliverSoon } from '../notifications/soon.ts';
import { enabledChannels, scheduleSoon } from '../outbox/queue.ts';
import { scheduleSoon as scheduleWhatsappSoon } from '../whatsapp/queue.ts';
import { readJsonObject } from './body.ts';
import { limitSubject, requestAddress } from './client-address.ts';
import type { Handler } from './handler.ts';
import { IDEMPOTENCY_KEY, INVALID_IDEMPOTENCY_KEY, RATE_WINDOW_SECONDS, tooMany } from './public-writes.ts';
import { json, jsonError, methodNotAllowed } from './responses.ts';

export interface LeadEndpoint<Schema extends z.ZodMiniType> {
  /** Names the endpoint in the rate limit and the logs, e.g. `quick-quotes`. */
  name: string;
  schema: Schema;
  /**
   * The form's Spanish texts for a 400 and a 503, from its definition in
   * src/lib/forms/ (docs/product.md §12.3); an endpoint shared by two forms
   * picks by the body.
   */
  messages: EndpointMessages | ((body: Record<string, unknown>) => EndpointMessages);
  /**
   * Stores the validated lead with insertLead (one round trip, which also
   * counts `rateLimit`); returns it and the answer body.
   */
  save(
    db: Database,
    input: z.output<Schema>,
    idempotency: Idempotency | null,
    rateLimit: RateLimitHit,
    client: LeadClient,
  ): Promise<{ lead: StoredLead; answer: object }>;
  /** A normal-looking answer for a bot that filled the honeypot; nothing is stored. */
  decoy(): object;
}

/**
 * The story of every lead submission: method, body, idempotency key,
 * validation, rate limit, honeypot, save, answer. The database failing at
 * any point gives the form's failure text with 503; nothing is half-written
 * because each lead is one statement (store_lead_request(), which also counts the
 * rate limit: one round trip to PostgreSQL per lead).
 */
export function leadHandler<Schema extends z.ZodMiniType>(endpoint: LeadEndpoint<Schema>): Handler {
  return async (request, context) => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);

    const body = await readJsonObject(request);
    if (body instanceof Response) return body;

    const idempotencyKey = request.headers.get('idempotency-key');
    if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      return jsonError(400, INVALID_IDEMPOTENCY_KEY);
    }

    const messages = typeof endpoint.messages === 'function' ? endpoint.messages(body) : endpoint.messages;
    const isBot = isFilled(body[HONEYPOT_FIELD]);
    const parsed = endpoint.schema.safeParse(body);
    if (!isBot && !parsed.success) {
      return jsonError(400, messages.invalid, { fields: fieldMessages(parsed.error) });
    }

    try {
      // Inside the try: a broken variable on the platform is a logged 503 with the form's text.
      const { leadRateLimit } = getConfig();
      return await withDatabase(async (db) => {
        const rule = { bucket: `lead:${endpoint.name}`, limit: leadRateLimit, windowSeconds: RATE_WINDOW_SECONDS };
        // An IPv6 client is counted by its /64 network (limitSubject): it may take any address of it.
        const subject = limitSubject(requestAddress(context));
        if (isBot || !parsed.success) {
          // Counted like a lead, answered like one, stored never.
          return (await hitRateLimit(db, rule, subject)) ? json(201, endpoint.decoy()) : tooMany();
        }
        const idempotency = idempotencyKey
          ? { key: idempotencyKey, fingerprint: fingerprint(endpoint.name, parsed.data) }
          : null;
        const { lead, answer } = await endpoint.save(
          db,
          parsed.data,
          idempotency,
          { rule, subject },
          { userAgent: request.headers.get('user-agent') },
        );
        if (lead.deliveries.length > 0) {
          // Their channels' jobs woken, with other leads' (one NOTIFY for many); on Netlify they also leave right after the answer.
          const jobs = scheduleSoon(enabledChannels());
          context.waitUntil?.(Promise.all([jobs, deliverSoon(lead.deliveries)]));
        }
        // The instant first reply by WhatsApp: its job, with others' (the queue's upkeep adds a lost one).
        if (lead.firstReply) {
          const firstReply = scheduleWhatsappSoon([], [lead.firstReply]);
          context.waitUntil?.(firstReply);
        }
        return json(201, answer);
      });
    } catch (error) {
      if (error instanceof RateLimited) return tooMany();
      if (error instanceof IdempotencyConflict) return jsonError(422, KEY_REUSED);
      logJson('error', { function: endpoint.name, event: 'lead_not_saved', error: (error as Error).message });
      return jsonError(503, messages.failure);
    }
  };
}

const KEY_REUSED = 'Esta solicitud ya se envió con otros datos. Recarga la página y envíala de nuevo.';

/** SHA-256 of the endpoint and the validated payload (keys sorted): what an idempotency key is bound to. */
function fingerprint(endpoint: string, payload: unknown): string {
  const canonical = JSON.stringify(payload, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
  return createHash('sha256').update(`${endpoint}\n${canonical}`).digest('hex');
}

function isFilled(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * A fresh id for decoy answers, of the form of a stored lead's (UUID version
 * 7, as migration 0027 gives them: 48 bits of milliseconds, the version, then
 * random bits), so a bot cannot tell a decoy from a lead by its id.
 */
export function decoyId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
