import { useState } from 'react';
import { LoadFailed, Loading, Section } from '../shared/ui.tsx';
import { AppointmentItem } from './AppointmentItem.tsx';
import { BookingDialog } from './BookingDialog.tsx';
import { useContactAppointments } from './queries.ts';

/**
 * A contact's "Citas" (issue #40): their appointments, the latest first, and
 * "Agendar cita", which opens the booking dialog for them. Each item leaves
 * "Asistió" / "No asistió" once one has started (AppointmentItem).
 */
export function ContactAppointments({ contact }: { contact: { id: string; name: string } }) {
  const query = useContactAppointments(contact.id);
  const [booking, setBooking] = useState(false);
  return (
    <Section title="Citas" className="grid gap-3" titleClass="text-lg font-bold">
      <button
        type="button"
        className="btn btn-primary min-h-11 justify-self-start px-4 py-2"
        onClick={() => setBooking(true)}
      >
        Agendar cita
      </button>
      {query.isError ? (
        <LoadFailed error={query.error} retry={() => void query.refetch()} what="No se pudieron cargar las citas." />
      ) : !query.data ? (
        <Loading text="Cargando citas…" />
      ) : query.data.items.length === 0 ? (
        <p className="text-sm text-brand-800">Sin citas todavía.</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2">
          {query.data.items.map((item) => (
            <li key={item.id}>
              <AppointmentItem item={item} showDate showMember linkContact={false} />
            </li>
          ))}
        </ul>
      )}
      <BookingDialog open={booking} contact={contact} onClose={() => setBooking(false)} />
    </Section>
  );
}
