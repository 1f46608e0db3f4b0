import type { Config } from '@netlify/functions';
import { getConfig } from '../../src/server/config.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { readAtMost } from '../../src/server/http/body.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { DATABASE_DOWN, json, jsonError } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { applyEvent, storeEvent } from '../../src/server/payments/events.ts';
import { type Stripe, verifiedEvent } from '../../src/server/payments/stripe.ts';

/** Stripe's events are a few kilobytes; a checkout's with its line items well under this. */
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * Stripe's webhook (issue #41, decision 0070): 401 unless Stripe-Signature is
 * Stripe's HMAC of the raw body under STRIPE_WEBHOOK_SECRET, within its five
 * minutes (the SDK's own check); then the event is stored once with its job
 * (one statement) and acknowledged 200; the job applies it (events.ts), on
 * Netlify also right after the answer. Stripe retries what is not
 * answered 2xx for days, so a database down is a 503. Not same-origin:
 * Stripe's servers call it; the signature stands for the origin.
 */
export default endpoints(
  'payments-webhook',
  [
    {
      method: 'POST',
      path: '/api/pagos/stripe/webhook',
      access: 'public',
      async work({ request, database, context }) {
        const payments = getConfig().payments;
        if (!payments) return jsonError(404, 'Los pagos en línea no están configurados.');
        let raw: Uint8Array | null;
        try {
          raw = await readAtMost(request, MAX_EVENT_BYTES);
        } catch {
          return jsonError(400, 'La solicitud llegó incompleta.');
        }
        if (!raw) return jsonError(413, 'La solicitud es demasiado grande.');
        let event: Stripe.Event;
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
          event = await verifiedEvent(payments, text, request.headers.get('stripe-signature') ?? '');
        } catch {
          return jsonError(401, 'Firma de Stripe ausente o incorrecta.');
        }
        let fresh: boolean;
        try {
          fresh = await database((db) => storeEvent(db, event, text));
        } catch {
          return jsonError(503, DATABASE_DOWN);
        }
        // Applied by its job (at once on the local worker); on Netlify also right after this answer.
        if (fresh && context.waitUntil) {
          context.waitUntil(
            withDatabase((db) => applyEvent(db, event.id, payments.live, Date.now())).catch((error: unknown) =>
              logJson('warn', { event: 'payment_event_later', eventId: event.id, error: (error as Error).message }),
            ),
          );
        }
        return json(200, { received: true, duplicate: !fresh });
      },
    },
  ],
  { sameOrigin: false },
);

export const config: Config = { path: '/api/pagos/stripe/webhook' };
