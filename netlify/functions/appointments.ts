import type { Config } from '@netlify/functions';
import { BOOKING_MESSAGES, bookingSchema, slotsQuerySchema } from '../../src/lib/appointments/booking.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { slotsAnswer } from '../../src/server/appointments/availability.ts';
import {
  AlreadyHeld,
  BookingKeyReused,
  bookAppointment,
  kindAndPlace,
  SlotTaken,
  TooManyAppointments,
  UnknownKind,
  UnknownPlace,
} from '../../src/server/appointments/book.ts';
import { payPage } from '../../src/server/appointments/link.ts';
import { getConfig } from '../../src/server/config.ts';
import { limitSubject } from '../../src/server/http/client-address.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import {
  IDEMPOTENCY_KEY,
  INVALID_IDEMPOTENCY_KEY,
  RATE_WINDOW_SECONDS,
  tooMany,
} from '../../src/server/http/public-writes.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { hitRateLimit } from '../../src/server/leads/rate-limit.ts';

/** A kind or a place the data does not have: the visitor's page is older than the data. */
function unknownAnswer(error: unknown): Response | null {
  if (error instanceof UnknownKind)
    return jsonError(404, BOOKING_MESSAGES.unknownKind, { fields: { kind: BOOKING_MESSAGES.unknownKind } });
  if (error instanceof UnknownPlace)
    return jsonError(404, BOOKING_MESSAGES.unknownPlace, { fields: { place: BOOKING_MESSAGES.unknownPlace } });
  return null;
}

/**
 * The public booking (issue #40, decision 0058): GET /api/appointments/slots,
 * the free slots of a kind at a place between two dates of its calendar;
 * POST /api/appointments, a visitor books one (our own pages only, the
 * per-IP limit of the lead forms, Idempotency-Key as theirs). Taken: 409.
 */
export default endpoints(
  'appointments',
  [
    {
      method: 'GET',
      path: '/api/appointments/slots',
      access: 'public',
      async work(call) {
        const parsed = slotsQuerySchema.safeParse(Object.fromEntries(call.url.searchParams));
        if (!parsed.success) return jsonError(400, BOOKING_MESSAGES.invalid, { fields: fieldMessages(parsed.error) });
        let found: ReturnType<typeof kindAndPlace>;
        try {
          found = kindAndPlace(parsed.data.kind, parsed.data.place);
        } catch (error) {
          const answer = unknownAnswer(error);
          if (answer) return answer;
          throw error;
        }
        const answer = await call.database((db) => slotsAnswer(db, parsed.data, found.kind, found.place, Date.now()));
        return json(200, answer, { 'Cache-Control': 'no-store' });
      },
    },
    {
      method: 'POST',
      path: '/api/appointments',
      access: 'public',
      async work(call) {
        const idempotencyKey = call.request.headers.get('idempotency-key');
        if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey))
          return jsonError(400, INVALID_IDEMPOTENCY_KEY);
        const booking = await call.body(bookingSchema, BOOKING_MESSAGES.invalid);
        const { leadRateLimit } = getConfig();
        const rule = { bucket: 'appointments:book', limit: leadRateLimit, windowSeconds: RATE_WINDOW_SECONDS };
        try {
          return await call.database(async (db) => {
            if (!(await hitRateLimit(db, rule, limitSubject(call.ip)))) return tooMany();
            const answer = await bookAppointment(db, {
              booking,
              source: 'sitio',
              idempotencyKey,
              now: Date.now(),
              userAgent: call.request.headers.get('user-agent'),
            });
            const payUrl = payPage({ id: answer.id, status: answer.status, start: Date.parse(answer.start) });
            return json(201, { ...answer, payUrl });
          });
        } catch (error) {
          if (error instanceof SlotTaken) return jsonError(409, BOOKING_MESSAGES.taken, { code: 'slot_taken' });
          if (error instanceof BookingKeyReused) return jsonError(422, BOOKING_MESSAGES.keyReused);
          if (error instanceof AlreadyHeld)
            return jsonError(409, BOOKING_MESSAGES.alreadyHeld, { code: 'already_held' });
          if (error instanceof TooManyAppointments)
            return jsonError(409, BOOKING_MESSAGES.tooMany, { code: 'too_many_appointments' });
          const answer = unknownAnswer(error);
          if (answer) return answer;
          throw error;
        }
      },
    },
  ],
  { unavailable: BOOKING_MESSAGES.unavailable },
);

export const config: Config = {
  path: ['/api/appointments', '/api/appointments/slots'],
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
