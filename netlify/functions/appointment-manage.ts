import type { Config } from '@netlify/functions';
import { slotDatesSchema } from '../../src/lib/appointments/booking.ts';
import { MANAGE_MESSAGES, manageActionSchema, manageQuerySchema } from '../../src/lib/appointments/manage.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { SlotTaken } from '../../src/server/appointments/book.ts';
import {
  AppointmentCancelled,
  cancelManaged,
  HoldExpired,
  InsideCutoff,
  LinkExpired,
  LinkInvalid,
  manageSlots,
  readManaged,
  rescheduleManaged,
  TooManyMoves,
} from '../../src/server/appointments/manage.ts';
import { getConfig } from '../../src/server/config.ts';
import { limitSubject } from '../../src/server/http/client-address.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { RATE_WINDOW_SECONDS, tooMany } from '../../src/server/http/public-writes.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { hitRateLimit } from '../../src/server/leads/rate-limit.ts';

/** The refusals of the link and of a change, in the buyer's words (src/lib/appointments/manage.ts). */
function refusal(error: unknown): Response | null {
  if (error instanceof LinkInvalid) return jsonError(401, MANAGE_MESSAGES.invalidLink, { code: 'invalid_link' });
  if (error instanceof LinkExpired) return jsonError(410, MANAGE_MESSAGES.expiredLink, { code: 'expired_link' });
  if (error instanceof AppointmentCancelled) return jsonError(410, MANAGE_MESSAGES.cancelled, { code: 'cancelled' });
  if (error instanceof HoldExpired) return jsonError(410, MANAGE_MESSAGES.holdExpired, { code: 'hold_expired' });
  if (error instanceof InsideCutoff) return jsonError(422, MANAGE_MESSAGES.cutoff, { code: 'cutoff' });
  if (error instanceof SlotTaken) return jsonError(409, MANAGE_MESSAGES.taken, { code: 'slot_taken' });
  if (error instanceof TooManyMoves) return jsonError(409, MANAGE_MESSAGES.tooManyMoves, { code: 'too_many_moves' });
  return null;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The buyer's page of an appointment (issue #40, decision 0059): GET
 * /api/appointments/manage?t=<token> reads it, GET …/manage/slots lists where
 * it may move (its own time free), POST cancels or moves it. No
 * session: the signed token is the authorisation (401 when it is not ours,
 * 410 expired or cancelled); writes from our own pages only, under the public
 * writes' per-IP limit (a bucket of its own) and the platform's rate limit.
 */
export default endpoints(
  'appointment-manage',
  [
    {
      method: 'GET',
      path: '/api/appointments/manage',
      access: 'public',
      async work(call) {
        const parsed = manageQuerySchema.safeParse(Object.fromEntries(call.url.searchParams));
        if (!parsed.success) return jsonError(401, MANAGE_MESSAGES.invalidLink, { code: 'invalid_link' });
        try {
          const answer = await call.database((db) => readManaged(db, parsed.data.t, Date.now()));
          return json(200, answer, NO_STORE);
        } catch (error) {
          const answer = refusal(error);
          if (answer) return answer;
          throw error;
        }
      },
    },
    {
      method: 'GET',
      path: '/api/appointments/manage/slots',
      access: 'public',
      async work(call) {
        const query = Object.fromEntries(call.url.searchParams);
        const link = manageQuerySchema.safeParse(query);
        if (!link.success) return jsonError(401, MANAGE_MESSAGES.invalidLink, { code: 'invalid_link' });
        const dates = slotDatesSchema.safeParse(query);
        if (!dates.success) return jsonError(400, MANAGE_MESSAGES.invalid, { fields: fieldMessages(dates.error) });
        try {
          const answer = await call.database((db) => manageSlots(db, link.data.t, dates.data, Date.now()));
          return json(200, answer, NO_STORE);
        } catch (error) {
          const answer = refusal(error);
          if (answer) return answer;
          throw error;
        }
      },
    },
    {
      method: 'POST',
      path: '/api/appointments/manage',
      access: 'public',
      async work(call) {
        const action = await call.body(manageActionSchema, (fields) =>
          fields.t
            ? jsonError(401, MANAGE_MESSAGES.invalidLink, { code: 'invalid_link' })
            : jsonError(400, MANAGE_MESSAGES.invalid, { fields }),
        );
        const rule = {
          bucket: 'appointments:manage',
          limit: getConfig().leadRateLimit,
          windowSeconds: RATE_WINDOW_SECONDS,
        };
        try {
          return await call.database(async (db) => {
            if (!(await hitRateLimit(db, rule, limitSubject(call.ip)))) return tooMany();
            const now = Date.now();
            const answer =
              action.action === 'cancelar'
                ? await cancelManaged(db, action.t, now)
                : await rescheduleManaged(db, action.t, Date.parse(action.start), now);
            return json(200, answer, NO_STORE);
          });
        } catch (error) {
          const answer = refusal(error);
          if (answer) return answer;
          throw error;
        }
      },
    },
  ],
  { unavailable: MANAGE_MESSAGES.unavailable },
);

export const config: Config = {
  path: ['/api/appointments/manage', '/api/appointments/manage/slots'],
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
