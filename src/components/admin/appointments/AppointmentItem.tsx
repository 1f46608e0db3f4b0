import type { AppointmentStatus } from '../../../lib/appointments/booking.ts';
import { type CalendarItem, STATUS_LABELS } from '../../../lib/appointments/panel.ts';
import { PAYMENT_METHOD_LABELS, type PaymentStatus } from '../../../lib/payments/words.ts';
import { usePanelUser } from '../session.ts';
import { AttendanceButtons } from './AttendanceButtons.tsx';
import { CancelAppointment } from './CancelAppointment.tsx';
import { MoveAppointment } from './MoveAppointment.tsx';
import { usePassed } from './use-passed.ts';

/** Its payment, as the adviser reads it next to the status (issue #41). */
const PAYMENT_WORDS: Record<PaymentStatus, string> = {
  abierto: 'Pago sin completar',
  pendiente: 'Pago pendiente',
  pagado: 'Pagada',
  vencido: 'Pago vencido',
  reembolsado: 'Pago reembolsado',
};

import { meridaClock, meridaDate, shortDay } from './time.ts';

/** Each status's badge: colour and words (never colour alone). */
export const STATUS_BADGE: Record<AppointmentStatus, string> = {
  por_pagar: 'bg-amber-100 text-amber-950',
  confirmada: 'bg-emerald-100 text-emerald-950',
  cancelada: 'bg-sand-200 text-brand-900 line-through',
  asistio: 'bg-brand-900 text-white',
  no_asistio: 'bg-danger-600 text-white',
};

/**
 * One appointment as the calendar and a contact's "Citas" show it: time
 * (Mérida's clock), kind, place, the contact (a link to their page, unless
 * the list is already on it), its status and, for the team's calendar, the
 * member. Once a confirmed appointment has started, "Asistió" / "No
 * asistió" (AttendanceButtons, decision 0062); the server decides who may.
 */
export function AppointmentItem({
  item,
  showDate = false,
  showMember = false,
  linkContact = true,
}: {
  item: CalendarItem;
  showDate?: boolean;
  showMember?: boolean;
  linkContact?: boolean;
}) {
  const viewer = usePanelUser();
  const started = usePassed(item.start);
  // An unpaid hold past its time holds nothing: the slot is anyone's (and is cancelled by the next booking of it).
  const lapsed = usePassed(item.status === 'por_pagar' ? item.holdUntil : null);
  const cancelled = item.status === 'cancelada' || lapsed;
  // Cancelling and marking are the appointment's adviser's, or an administrator's (the server's 403 otherwise):
  // offered once the session says who is looking.
  const theirs = viewer !== null && (viewer.admin || item.member?.id === viewer.id);
  const markable = theirs && item.status === 'confirmada' && started;
  // Before its start, a held appointment can be moved or cancelled by the team.
  const cancellable = theirs && !started && !lapsed && (item.status === 'confirmada' || item.status === 'por_pagar');
  return (
    <article
      className={`grid min-w-0 gap-1 rounded-xl bg-white p-3 ring-1 ring-brand-900/10 ${cancelled ? 'opacity-75' : ''}`}
      data-testid="appointment"
      aria-label={`${item.kindName} con ${item.contact.name}, ${meridaClock(item.start)}`}
    >
      <p className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-bold tabular-nums">
          {showDate && <span>{shortDay(meridaDate(item.start))} · </span>}
          <time dateTime={item.start}>{meridaClock(item.start)}</time>–
          <time dateTime={item.end}>{meridaClock(item.end)}</time>
        </span>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${lapsed ? STATUS_BADGE.cancelada : STATUS_BADGE[item.status]}`}
        >
          {lapsed ? 'Apartado vencido' : STATUS_LABELS[item.status]}
        </span>
      </p>
      <p className="text-sm font-semibold wrap-anywhere">{item.kindName}</p>
      {item.payment && (
        <p className="text-sm font-semibold text-brand-900" data-testid="appointment-payment">
          {PAYMENT_WORDS[item.payment.status]}
          {item.payment.method ? ` · ${PAYMENT_METHOD_LABELS[item.payment.method]}` : ''}
        </p>
      )}
      <p className="text-sm text-brand-800 wrap-anywhere">{item.placeName}</p>
      {linkContact ? (
        <a
          href={`/admin/prospecto?id=${item.contact.id}`}
          className="inline-flex min-h-11 items-center justify-self-start font-semibold text-brand-800 underline underline-offset-4 wrap-anywhere"
        >
          {item.contact.name}
        </a>
      ) : null}
      {showMember && <p className="text-xs text-brand-800">Con {item.member ? item.member.name : 'nadie asignado'}</p>}
      {cancellable ? (
        <div className="flex flex-wrap gap-2 pt-1">
          <MoveAppointment item={item} />
          <CancelAppointment
            appointmentId={item.id}
            contactId={item.contact.id}
            contactName={item.contact.name}
            paid={item.payment?.status === 'pagado'}
          />
        </div>
      ) : null}
      {markable ? (
        <div className="flex flex-wrap gap-2 pt-1">
          <AttendanceButtons
            appointmentId={item.id}
            start={item.start}
            status={item.status}
            contactName={item.contact.name}
          />
        </div>
      ) : null}
    </article>
  );
}
