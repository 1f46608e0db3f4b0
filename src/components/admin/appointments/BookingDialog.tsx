import { type FormEvent, useEffect, useId, useState } from 'react';
import { showToast } from '../../../lib/client/toast.ts';
import { ApiError, explain, fieldErrors } from '../api.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { FormActions } from '../shared/FormActions.tsx';
import { SelectBox } from '../shared/ui.tsx';
import { FreeSlots } from './FreeSlots.tsx';
import { useBookForContact, useBookingOptions, useSlots } from './queries.ts';
import { addDays, meridaDate } from './time.ts';

/** How far ahead the dialog lists free slots, in days. */
const DAYS_SHOWN = 21;

const formatters = new Map<
  string,
  { day: Intl.DateTimeFormat; clock: Intl.DateTimeFormat; date: Intl.DateTimeFormat }
>();
function formatsOf(timeZone: string) {
  let found = formatters.get(timeZone);
  if (!found) {
    found = {
      day: new Intl.DateTimeFormat('es-MX', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }),
      clock: new Intl.DateTimeFormat('es-MX', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      date: new Intl.DateTimeFormat('en-CA', { timeZone }),
    };
    formatters.set(timeZone, found);
  }
  return found;
}

/**
 * "Agendar cita" for a contact (issue #40): a native <dialog> with the kind,
 * the place and a free slot (the public endpoint's, on the place's clock),
 * booked for this contact with their own phone and name
 * (POST /api/admin/appointments). A slot taken meanwhile: the server's 409
 * words and the list asked again.
 */
export function BookingDialog({
  open,
  contact,
  onClose,
}: {
  open: boolean;
  contact: { id: string; name: string };
  onClose(): void;
}) {
  return (
    <Dialog open={open} title={`Agendar cita · ${contact.name}`} onClose={onClose} wide>
      <BookingForm contact={contact} onClose={onClose} />
    </Dialog>
  );
}

function BookingForm({ contact, onClose }: { contact: { id: string; name: string }; onClose(): void }) {
  const options = useBookingOptions(true);
  const kinds = options.data?.kinds ?? [];
  const [kindId, setKindId] = useState('');
  const kind = kinds.find((entry) => entry.id === kindId) ?? kinds[0];
  const [placeId, setPlaceId] = useState('');
  const place = kind?.places.find((entry) => entry.id === placeId) ?? kind?.places[0];
  const today = meridaDate(Date.now());
  const slots = useSlots(kind?.id ?? '', place?.id ?? '', today, addDays(today, DAYS_SHOWN - 1));
  const [start, setStart] = useState('');
  const [error, setError] = useState<string | null>(null);
  const book = useBookForContact(contact.id);
  const id = `id${useId()}`;

  const timeZone = slots.data?.timeZone ?? place?.timeZone ?? 'America/Merida';
  const format = formatsOf(timeZone);
  const offered = slots.data?.slots ?? [];

  // A new kind, place or list of slots forgets a start that is no longer offered.
  useEffect(() => {
    if (start && !offered.some((slot) => slot.start === start)) setStart('');
  }, [offered, start]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!kind || !place) return setError('Elige el tipo de cita y el lugar.');
    if (!start) return setError('Elige un horario de la lista.');
    setError(null);
    book.mutate(
      { contactId: contact.id, kind: kind.id, place: place.id, start },
      {
        onSuccess: (booked) => {
          onClose();
          showToast({
            title: 'Cita agendada',
            description: `${kind.name} · ${format.day.format(new Date(booked.start))}, ${format.clock.format(new Date(booked.start))}`,
          });
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.status === 409) void slots.refetch();
          const fields = fieldErrors(failure);
          setError((fields && Object.values(fields)[0]) ?? explain(failure, 'No se pudo agendar. Intenta de nuevo.'));
        },
      },
    );
  }

  if (options.isError)
    return (
      <div className="grid gap-4">
        <p role="alert">{explain(options.error, 'No se pudieron cargar los tipos de cita.')}</p>
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={onClose}>
            Cancelar
          </button>
          <button type="button" className="btn btn-primary min-h-11 px-4 py-2" onClick={() => void options.refetch()}>
            Reintentar
          </button>
        </div>
      </div>
    );
  if (!kind || !place) return <p role="status">Cargando tipos de cita…</p>;

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectBox
          label="Tipo de cita"
          value={kind.id}
          onChange={(value) => {
            setKindId(value);
            setPlaceId('');
          }}
        >
          {kinds.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
              {entry.priceMxn ? ` ($${entry.priceMxn})` : ''}
            </option>
          ))}
        </SelectBox>
        <SelectBox label="Lugar" value={place.id} onChange={setPlaceId}>
          {kind.places.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
        </SelectBox>
      </div>
      {kind.priceMxn ? (
        <p className="text-sm text-brand-800">
          Se agenda como «por pagar» (${kind.priceMxn}) y se aparta mientras llega el pago.
        </p>
      ) : null}

      <FreeSlots
        slots={slots}
        selected={start}
        onSelect={setStart}
        idPrefix={`${id}-`}
        empty={`No hay horarios libres en los próximos ${DAYS_SHOWN} días para este tipo de cita y lugar. Revisa la disponibilidad del equipo o elige otro lugar.`}
      />
      <FormActions
        error={error}
        submit={book.isPending ? 'Agendando…' : 'Agendar cita'}
        disabled={book.isPending}
        onCancel={onClose}
      />
    </form>
  );
}
