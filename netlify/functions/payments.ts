import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { PAYMENT_MESSAGES } from '../../src/lib/payments/words.ts';
import { readPayToken } from '../../src/server/appointments/link.ts';
import { getConfig, publicSiteUrl } from '../../src/server/config.ts';
import { limitSubject } from '../../src/server/http/client-address.ts';
import { Answered, endpoints } from '../../src/server/http/endpoint.ts';
import { RATE_WINDOW_SECONDS, tooMany } from '../../src/server/http/public-writes.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { hitRateLimit } from '../../src/server/leads/rate-limit.ts';
import { NotPayable, openCheckout, ProviderUnavailable } from '../../src/server/payments/checkout.ts';
import { paymentPage } from '../../src/server/payments/page.ts';

const tokenSchema = z.object({ t: z.string().regex(/^[A-Za-z0-9_-]{48}$/, PAYMENT_MESSAGES.invalidLink) }).strict();

const STATUS_OF: Record<NotPayable['reason'], number> = {
  paid: 409,
  pending: 409,
  free: 409,
  cancelled: 410,
  expired: 410,
  begun: 410,
};

/** The appointment a payment link names, or the 401 / 410 that says why it cannot be used. */
function appointmentOf(token: string): string {
  const reading = readPayToken(token, Date.now());
  if (reading.ok) return reading.appointmentId;
  throw new Answered(
    reading.reason === 'expired'
      ? jsonError(410, PAYMENT_MESSAGES.expiredLink)
      : jsonError(401, PAYMENT_MESSAGES.invalidLink),
  );
}

function paymentsOn() {
  const payments = getConfig().payments;
  if (!payments) throw new Answered(jsonError(404, PAYMENT_MESSAGES.off));
  return payments;
}

/**
 * The buyer's payment of an appointment "por pagar" (issue #41, decision
 * 0070), from its signed link /pagar?t=<token>:
 * GET /api/pagos/estado?t=: what the page shows (the appointment, its latest
 * payment as the webhook left it, whether it can be paid now);
 * POST /api/pagos/checkout {t}: Stripe's hosted checkout for it (our pages
 * only, the per-IP limit of the forms): {url} to go to.
 */
export default endpoints(
  'payments',
  [
    {
      method: 'GET',
      path: '/api/pagos/estado',
      access: 'public',
      async work(call) {
        paymentsOn();
        const parsed = tokenSchema.safeParse(Object.fromEntries(call.url.searchParams));
        if (!parsed.success) return jsonError(401, PAYMENT_MESSAGES.invalidLink);
        const id = appointmentOf(parsed.data.t);
        const answer = await call.database((db) => paymentPage(db, id, Date.now()));
        if (!answer) return jsonError(410, PAYMENT_MESSAGES.cancelled);
        return json(200, answer, { 'Cache-Control': 'no-store' });
      },
    },
    {
      method: 'POST',
      path: '/api/pagos/checkout',
      access: 'public',
      async work(call) {
        const payments = paymentsOn();
        const { t } = await call.body(tokenSchema, PAYMENT_MESSAGES.invalid);
        const id = appointmentOf(t);
        const { leadRateLimit } = getConfig();
        const rule = { bucket: 'payments:checkout', limit: leadRateLimit, windowSeconds: RATE_WINDOW_SECONDS };
        try {
          return await call.database(async (db) => {
            if (!(await hitRateLimit(db, rule, limitSubject(call.ip)))) return tooMany();
            const url = await openCheckout(db, payments, id, publicSiteUrl(getConfig()), Date.now());
            return json(200, { url });
          });
        } catch (error) {
          if (error instanceof NotPayable)
            return jsonError(STATUS_OF[error.reason], PAYMENT_MESSAGES[error.reason], { code: error.reason });
          if (error instanceof ProviderUnavailable) return jsonError(503, PAYMENT_MESSAGES.provider);
          throw error;
        }
      },
    },
  ],
  { unavailable: PAYMENT_MESSAGES.unavailable },
);

export const config: Config = {
  path: ['/api/pagos/estado', '/api/pagos/checkout'],
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
