import type { Config } from '@netlify/functions';
import { BOOKING_MESSAGES } from '../../src/lib/appointments/booking.ts';
import {
  calendarQuerySchema,
  PANEL_APPOINTMENT_MESSAGES as MESSAGES,
  panelBookingSchema,
} from '../../src/lib/appointments/panel.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { AlreadyHeld, SlotTaken, UnknownKind, UnknownPlace } from '../../src/server/appointments/book.ts';
import {
  bookForContact,
  bookingOptions,
  calendar,
  contactAppointments,
  mayManage,
} from '../../src/server/appointments/panel.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

/**
 * The panel's appointments (issue #40, decision 0061).
 *
 * GET /api/admin/appointments?from=AAAA-MM-DD&to=AAAA-MM-DD[&member=id]: the
 *   calendar between two dates of Mérida's calendar. An adviser sees their own
 *   (asking for another member's is 403); an administrator the team's, or one
 *   member's with `member`.
 * GET /api/admin/appointments?contact=id: a contact's appointments, with
 *   whichever member they are (any member who can open the contact sees them).
 * GET /api/admin/appointments/options: the kinds and places the booking dialog offers.
 * POST /api/admin/appointments {contactId, kind, place, start}: a member books a
 *   free slot for an existing contact (bookAppointment, source 'panel'); 409
 *   when it was taken meanwhile.
 */
export default endpoints('admin-appointments', [
  {
    method: 'GET',
    path: '/api/admin/appointments',
    access: 'member',
    async work({ db, user, url }) {
      const parsed = calendarQuerySchema.safeParse(Object.fromEntries(url.searchParams));
      if (!parsed.success) return jsonError(400, MESSAGES.invalidQuery, { fields: fieldMessages(parsed.error) });
      const query = parsed.data;
      if ('contact' in query) {
        const items = await contactAppointments(db, query.contact);
        if (!items) return jsonError(404, MESSAGES.contactNotFound);
        return json(200, { items, member: null }, { 'Cache-Control': 'no-store' });
      }
      const member = query.member ?? (user.admin ? null : user.id);
      if (member !== null && !mayManage(user, member)) return jsonError(403, MESSAGES.othersForbidden);
      const items = await calendar(db, query.from, query.to, member);
      return json(200, { items, member }, { 'Cache-Control': 'no-store' });
    },
  },
  {
    method: 'GET',
    path: '/api/admin/appointments/options',
    access: 'member',
    async work() {
      return json(200, bookingOptions(), { 'Cache-Control': 'no-store' });
    },
  },
  {
    method: 'POST',
    path: '/api/admin/appointments',
    access: 'member',
    async work({ db, actor, body }) {
      const input = await body(panelBookingSchema, MESSAGES.invalidBooking);
      try {
        const booked = await bookForContact(db, input, actor, Date.now());
        if (!booked) return jsonError(404, MESSAGES.contactNotFound);
        return json(201, booked);
      } catch (error) {
        if (error instanceof SlotTaken) return jsonError(409, BOOKING_MESSAGES.taken, { code: 'slot_taken' });
        if (error instanceof AlreadyHeld) return jsonError(409, BOOKING_MESSAGES.contactHeld, { code: 'already_held' });
        if (error instanceof UnknownKind)
          return jsonError(400, BOOKING_MESSAGES.unknownKind, { fields: { kind: BOOKING_MESSAGES.unknownKind } });
        if (error instanceof UnknownPlace)
          return jsonError(400, BOOKING_MESSAGES.unknownPlace, { fields: { place: BOOKING_MESSAGES.unknownPlace } });
        throw error;
      }
    },
  },
]);

export const config: Config = { path: ['/api/admin/appointments', '/api/admin/appointments/options'] };
