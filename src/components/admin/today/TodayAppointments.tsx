import { useId, useState } from 'react';
import { MERIDA_ZONE } from '../../../lib/admin/merida-time.ts';
import type { TodayAgenda, TodayAppointment, TodayScope } from '../../../lib/admin/today.ts';
import { APPOINTMENT_STATUS_LABELS } from '../../../lib/appointments/attendance.ts';
import { AttendanceButtons } from '../appointments/AttendanceButtons.tsx';

const STATUS_BADGE: Record<TodayAppointment['status'], string> = {
  confirmada: 'bg-brand-100 text-brand-900',
  por_pagar: 'bg-sand-200 text-brand-900',
  cancelada: 'bg-sand-200 text-brand-900',
  asistio: 'bg-brand-700 text-white',
  no_asistio: 'bg-danger-600 text-white',
};

/** "10:00" (and the zone when the place is not on Mérida's clock), or "lun 23 de nov, 10:00" for another day. */
function when(appointment: TodayAppointment, withDay: boolean): string {
  const other = appointment.timeZone !== MERIDA_ZONE;
  return new Intl.DateTimeFormat('es-MX', {
    timeZone: appointment.timeZone,
    ...(withDay ? { weekday: 'short', day: 'numeric', month: 'short' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(other ? { timeZoneName: 'short' } : {}),
  }).format(new Date(appointment.start));
}

function AppointmentCard({
  appointment,
  withDay,
  team,
}: {
  appointment: TodayAppointment;
  withDay: boolean;
  team: boolean;
}) {
  // The mark shows at once; the day's list is asked again once a no-show's follow-up is settled.
  const [marked, setMarked] = useState<TodayAppointment['status'] | null>(null);
  const status = marked ?? appointment.status;
  return (
    <li className="grid min-w-0 gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10 sm:grid-cols-[1fr_auto] sm:items-center">
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <time dateTime={appointment.start} className="text-lg font-bold tabular-nums">
            {when(appointment, withDay)}
          </time>
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${STATUS_BADGE[status]}`}>
            {APPOINTMENT_STATUS_LABELS[status]}
          </span>
        </p>
        <a
          href={`/admin/prospecto?id=${appointment.contact.id}`}
          className="flex min-h-11 items-center wrap-anywhere font-bold text-brand-900 underline underline-offset-4"
        >
          {appointment.contact.name}
        </a>
        <p className="text-sm text-brand-800 wrap-anywhere">
          {appointment.kindName} · {appointment.placeName}
          {team ? ` · ${appointment.member?.name ?? 'Sin asesor'}` : ''}
        </p>
      </div>
      <AttendanceButtons
        appointmentId={appointment.id}
        start={appointment.start}
        status={appointment.status}
        contactName={appointment.contact.name}
        onMarked={(saved) => setMarked(saved.status)}
      />
    </li>
  );
}

/**
 * The appointments of "Hoy" (issue #40, decision 0062): the ones still
 * unmarked from the days before first (a tap each: "Asistió" / "No
 * asistió"), then the day's, by time, with the buttons once each has begun.
 */
export function TodayAppointments({
  appointments,
  scope,
}: {
  appointments: TodayAgenda['appointments'];
  scope: TodayScope;
}) {
  const todayId = `id${useId()}`;
  const unmarkedId = `id${useId()}`;
  const team = scope === 'all';
  return (
    <>
      {appointments.unmarkedTotal > 0 && (
        <section aria-labelledby={unmarkedId} className="grid min-w-0 gap-3">
          <h3 id={unmarkedId} className="text-lg font-bold">
            Citas sin marcar{' '}
            <span className="tabular-nums">({appointments.unmarkedTotal.toLocaleString('es-MX')})</span>
          </h3>
          <p className="text-sm text-brand-800">Ya pasaron: indica si la persona asistió.</p>
          <ul className="grid gap-3" aria-labelledby={unmarkedId}>
            {appointments.unmarked.map((appointment) => (
              <AppointmentCard key={appointment.id} appointment={appointment} withDay team={team} />
            ))}
          </ul>
          {appointments.unmarked.length < appointments.unmarkedTotal && (
            <p className="text-sm text-brand-800">
              Se muestran las {appointments.unmarked.length} más antiguas; al marcarlas aparecen las siguientes.
            </p>
          )}
        </section>
      )}
      <section aria-labelledby={todayId} className="grid min-w-0 gap-3">
        <h3 id={todayId} className="text-lg font-bold">
          Citas de hoy <span className="tabular-nums">({appointments.today.length.toLocaleString('es-MX')})</span>
        </h3>
        {appointments.today.length === 0 ? (
          <p className="text-sm text-brand-800">Ninguna cita para hoy.</p>
        ) : (
          <ul className="grid gap-3" aria-labelledby={todayId}>
            {appointments.today.map((appointment) => (
              <AppointmentCard key={appointment.id} appointment={appointment} withDay={false} team={team} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
