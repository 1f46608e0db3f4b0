import * as z from 'zod/mini';
import '../forms/errors.ts'; // no library wording reaches a visitor
import type { AppointmentStatus } from './booking.ts';

/**
 * The buyer's own page of an appointment (issue #40, decision 0059): the link
 * in the confirmation and the reminders opens /cita?t=<token>; its island
 * reads the appointment and may cancel it or move it to another free slot,
 * until the kind's cutoff before its start. Shared by the endpoint
 * (netlify/functions/appointment-manage.ts) and the island.
 *
 * GET  /api/appointments/manage?t=<token>  -> 200 ManagedAppointment
 * GET  /api/appointments/manage/slots?t=<token>&from=…&to=…  -> 200 SlotsAnswer
 * POST /api/appointments/manage {t, action: 'cancelar'}
 *   or {t, action: 'reprogramar', start}   -> 200 ManagedAppointment
 * Errors: 400 invalid (fields), 401 a token that is not ours, 410 an expired
 * link or a cancelled appointment, 409 the new slot was taken, 422 inside
 * the cutoff; each with its Spanish message below.
 */

const token = z
  .string({ error: 'El enlace no es válido.' })
  .check(z.regex(/^[A-Za-z0-9_-]{48}$/, 'El enlace no es válido.'));

export const manageQuerySchema = z.object({ t: token });

/**
 * GET /api/appointments/manage/slots?t=…&from=…&to=…: where the appointment may
 * move (its own time counts as free); the dates are checked by slotDatesSchema
 * (booking.ts), as the public slots' are.
 */

export const manageActionSchema = z.discriminatedUnion('action', [
  z.object({ t: token, action: z.literal('cancelar') }),
  z.object({
    t: token,
    action: z.literal('reprogramar'),
    start: z.iso.datetime({ offset: true, error: 'Elige un horario de la lista.' }),
  }),
]);

export type ManageAction = z.output<typeof manageActionSchema>;

/** What the buyer's page shows of an appointment. */
export interface ManagedAppointment {
  id: string;
  status: AppointmentStatus;
  kind: string;
  kindName: string;
  place: string;
  placeName: string;
  /** The place's IANA zone: times are shown on its clock. */
  timeZone: string;
  start: string;
  end: string;
  /** Until when it may still be moved or cancelled here (the kind's cutoff before its start). */
  changeUntil: string;
  /** False once past changeUntil, or when the appointment is no longer upcoming. */
  canChange: boolean;
  /**
   * Where a "por pagar" is paid (the site's /pagar page, with its own link),
   * when online payments are on: the WhatsApp confirmation carries only this
   * page's link, so a buyer without e-mail pays from here. Read only.
   */
  payUrl?: string | null;
  /**
   * After a move only: the link's new token, good until a day after the new
   * start (the old one expires a day after the old start); the page puts it
   * in its address.
   */
  token?: string;
  /**
   * Its payment, when one stands: how much, and until when a cancellation
   * here gives it back (the kind's refundUntilHours before the start), or
   * null when it no longer does (past that, or moved once it had passed).
   */
  paid?: { amountMxn: number; refundUntil: string | null } | null;
}

/** The visitor's texts of the endpoints: in words.ts, which the islands import without zod. */
export { MANAGE_MESSAGES } from './words.ts';
