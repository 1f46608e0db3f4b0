import * as z from 'zod/mini';
import '../forms/errors.ts'; // no library wording reaches a visitor
import type { ContactState } from '../admin/contacts.ts';
import type { AppointmentStatus } from './booking.ts';

/**
 * "Asistió" / "No asistió" (issue #40, part 5, decision 0062): the adviser's
 * mark after an appointment's start, shared by the endpoint
 * (netlify/functions/admin-appointment-attendance.ts) and the panel's
 * buttons (AttendanceButtons).
 *
 * POST /api/admin/appointments/:id/attendance {attended: true|false}
 *   -> 200 AttendanceSaved (the same again for the same mark: idempotent)
 * Errors: 401/403 (not the appointment's member nor an administrator),
 * 404, 409 (before its start, cancelled, unpaid, or marked the other way),
 * each with its Spanish message below.
 */
export const attendanceSchema = z.strictObject(
  { attended: z.boolean({ error: 'Indica si la persona asistió o no.' }) },
  { error: 'Solo se puede enviar si la persona asistió.' },
);
export type AttendanceInput = z.output<typeof attendanceSchema>;

/** What a no-show proposes: the next contact, `days` after today at `time` on Mérida's clock (as the outcomes do). */
export const NO_SHOW_FOLLOW_UP = { days: 1, time: '10:00' } as const;

/** The answer: the appointment as marked, its contact as the mark left it, and a no-show's proposed follow-up. */
export interface AttendanceSaved {
  id: string;
  status: Extract<AppointmentStatus, 'asistio' | 'no_asistio'>;
  contact: {
    id: string;
    name: string;
    state: ContactState;
    /** The contact's version after the mark: taking the follow-up sends it (PATCH /api/admin/contacts/:id). */
    version: number;
    nextContactAt: string | null;
  };
  /** A no-show's proposed next contact (an instant); null after "Asistió". */
  proposedNextContactAt: string | null;
  /** False when the appointment was already marked so (a repeated tap): nothing was written. */
  changed: boolean;
}

export const ATTENDANCE_MESSAGES = {
  invalid: 'Revisa la asistencia.',
  notFound: 'No encontramos esta cita.',
  forbidden: 'Solo quien atiende la cita o un administrador puede marcar la asistencia.',
  notYet: 'Esta cita todavía no empieza. Marca la asistencia después de su hora de inicio.',
  cancelled: 'Esta cita se canceló: no hay asistencia que marcar.',
  unpaid: 'Esta cita sigue apartada por pagar. Marca la asistencia cuando se registre el pago.',
  markedOther: {
    asistio: 'Esta cita ya está marcada como «Asistió».',
    no_asistio: 'Esta cita ya está marcada como «No asistió».',
  },
} as const;

/** The appointment's statuses the panel shows, in words. */
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  por_pagar: 'Por pagar',
  confirmada: 'Confirmada',
  cancelada: 'Cancelada',
  asistio: 'Asistió',
  no_asistio: 'No asistió',
};
