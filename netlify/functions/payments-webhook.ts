import type { Config } from '@netlify/functions';
import { getConfig } from '../../src/server/config.ts';
import { readAtMost } from '../../src/server/http/body.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { DATABASE_DOWN, json, jsonError } from '../../src/server/http/responses.ts';
import { applyEvent } from '../../src/server/payments/events.ts';
import { type Stripe, verifiedEvent } from '../../src/server/payments/stripe.ts';

/** Stripe's events are a few kilobytes; a checkout's with its line items well under this. */
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * Stripe's webhook (issue #41, decision 0070): 401 unless Stripe-Signature is
 * Stripe's HMAC of the raw body under STRIPE_WEBHOOK_SECRET, within its five
 * minutes (the SDK's own check); then the event is applied once, in one
 * transaction (events.ts), and acknowledged 200. Stripe retries what is not
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
      async work({ request, database }) {
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
        try {
          const text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
          event = await verifiedEvent(payments, text, request.headers.get('stripe-signature') ?? '');
        } catch {
          return jsonError(401, 'Firma de Stripe ausente o incorrecta.');
        }
        try {
          const outcome = await database((db) => applyEvent(db, event, payments.live, Date.now()));
          return json(200, { received: true, outcome });
        } catch {
          return jsonError(503, DATABASE_DOWN);
        }
      },
    },
  ],
  { sameOrigin: false },
);

export const config: Config = { path: '/api/pagos/stripe/webhook' };
