import { originWords } from '../../../data/lead-origins.ts';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { FORM_LABELS, mayDeleteNote, type TimelineEntry } from '../../../lib/admin/contacts.ts';
import { formatMeridaClock } from '../../../lib/admin/merida-time.ts';
import { OUTCOMES, type OutcomeKey } from '../../../lib/admin/outcomes.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { callEndWords, callStatusWords, formatDuration, VOICE_TOOL_LABELS } from '../../../lib/voice/calls.ts';
import { DeliveryList } from '../shared/Deliveries.tsx';
import { useRemoveNote } from './page-queries.ts';
import { stateWords } from './words.ts';

const ATTEMPT_TITLES: Record<string, string> = {
  llamada: 'Llamó (intento)',
  whatsapp: 'Escribió por WhatsApp (intento)',
};

/** An appointment's line by the status it reached (issue #40). */
const APPOINTMENT_TITLES: Record<string, string> = {
  confirmada: 'Cita agendada',
  por_pagar: 'Cita apartada, por pagar',
  cancelada: 'Cita cancelada',
  asistio: 'Asistió a la cita',
  no_asistio: 'No asistió a la cita',
};

/**
 * A next contact in the history as the panel writes every moment, with its
 * year ("25 nov 2026, 10:00 a. m." in Mérida; a date alone, from before issue #26, "25 nov 2026").
 */
const moment = (value: string | null): string => (value === null ? '—' : formatShortDate(value));

/** Each change the history records, in words. */
const EVENT_TITLES: Record<string, (entry: Extract<TimelineEntry, { type: 'event' }>) => string> = {
  state: (entry) => `Estado: ${stateWords(entry.from)} → ${stateWords(entry.to)}`,
  next_contact: (entry) => `Próximo contacto: ${moment(entry.from)} → ${moment(entry.to)}`,
  outcome: (entry) => `Resultado: ${OUTCOMES[entry.to as OutcomeKey]?.label ?? entry.to ?? ''}`,
  attempt: (entry) => ATTEMPT_TITLES[entry.to ?? ''] ?? 'Intento de contacto',
  // Signed when a member reopened it by booking a visit from the panel; by a new request otherwise.
  // Why is its detail: a new request, a visit a member booked, money that arrived at Stripe.
  reopened: (entry) => `Reabierto (antes: ${stateWords(entry.from)})`,
  request_after_sale: () => 'Nueva solicitud de un cliente con venta cerrada: sigue en «Cerrado: ganado»',
  alias: (entry) => `También se presentó como «${entry.to ?? ''}» (se mantiene «${entry.from ?? ''}»)`,
  note_deleted: (entry) => `Nota eliminada: «${entry.from ?? ''}»`,
  assigned: (entry) => `Asignado: ${entry.from ?? 'sin asignar'} → ${entry.to ?? 'sin asignar'}`,
  claimed: (entry) => `Tomado por ${entry.to ?? entry.actor ?? ''}`,
  captured: (entry) => `Capturado por ${entry.actor ?? 'el equipo'} (${originWords(entry.to)})`,
  name: (entry) => `Nombre: ${entry.from ?? '—'} → ${entry.to ?? '—'}`,
  phone: (entry) => `Teléfono: ${entry.from ?? '—'} → ${entry.to ?? '—'}`,
  email: (entry) => `Correo: ${entry.from ?? '—'} → ${entry.to ?? '—'}`,
  whatsapp_opt_out: (entry) => `WhatsApp: se dio de baja («${entry.to ?? ''}»)`,
  whatsapp_template: (entry) => `WhatsApp: plantilla «${entry.to ?? ''}» enviada`,
  // Their press of a button of the consent question asked on WhatsApp (issue #43, decision 0083).
  marketing_consent: (entry) =>
    entry.to === 'si'
      ? 'Aceptó recibir novedades y promociones'
      : entry.actor
        ? 'Se registró su oposición a promociones y anuncios'
        : 'No aceptó recibir novedades y promociones',
  // The first reply's line says «Respuesta automática»; another automatic message's names its template (decision 0060).
  whatsapp_held: (entry) =>
    entry.to && entry.to !== 'Respuesta automática'
      ? `WhatsApp: «${entry.to}» no se envió (límite diario de mensajes automáticos alcanzado); escríbele tú`
      : 'WhatsApp: la respuesta automática no se envió (límite diario alcanzado); escríbele tú',
  // An e-mail about an appointment (decision 0060): what it was, sent or not and why (its detail).
  appointment_message: (entry) =>
    entry.to === 'enviado'
      ? `Enviado: ${entry.from ?? 'mensaje de la cita'}${entry.detail ? ` a ${entry.detail}` : ''}`
      : `No se envió: ${entry.from ?? 'mensaje de la cita'}${entry.detail ? ` (${entry.detail})` : ''}`,
  // The booking's kind, place and moment are its detail (src/server/appointments/book.ts).
  appointment: (entry) => APPOINTMENT_TITLES[entry.to ?? ''] ?? 'Cita',
  // A payment's step (issue #41): where it went, and its concept, amount and way (its detail).
  payment: (entry) =>
    `Pago: ${entry.from ? `${entry.from} → ` : ''}${entry.to ?? ''}${entry.detail ? ` (${entry.detail})` : ''}`,
  // During a call with the voice agent (issue #42): its status, and each tool it used with what it answered (detail).
  voice_status: (entry) => callStatusWords(entry.to),
  voice_tool: (entry) => `Agente de voz: ${VOICE_TOOL_LABELS[entry.to ?? ''] ?? entry.to ?? ''}`,
  merged: (entry) =>
    `Unido con ${entry.from ?? 'otro prospecto'} (${entry.to ?? ''}): sus solicitudes, notas e historial están aquí`,
};

/** What a history row needs to offer «Eliminar» on a note. */
export interface NoteRemoval {
  member: { id: string; admin: boolean };
  remove: (noteId: string) => void;
}

/** The deletion of a note, asked first (the history keeps a line saying so). */
export function useNoteRemoval(contactId: string, member: { id: string; admin: boolean }): NoteRemoval {
  const remove = useRemoveNote(contactId);
  return {
    member,
    remove: (noteId) => {
      if (!window.confirm('¿Eliminar esta nota? Quedará registrado en el historial.')) return;
      remove.mutate(noteId, { onSuccess: () => showToast({ title: 'Nota eliminada' }) });
    },
  };
}

/**
 * One entry of the contact's history as a compact centred row between the
 * conversation's bubbles (issue #27): a request, a call, a note or a change,
 * its time in Mérida and who did it. "Eliminar" shows on the notes the member
 * may delete (an adviser their own, an administrator any; the server refuses
 * the rest with a 403).
 */
export function TimelineRow({ entry, notes }: { entry: TimelineEntry; notes: NoteRemoval }) {
  const wide = entry.type === 'request' || entry.type === 'note';
  return (
    <li className="flex justify-center" data-entry={entry.type}>
      <div
        className={`grid min-w-0 gap-0.5 rounded-xl px-3 py-1.5 text-sm ring-1 ring-brand-900/10 ${
          wide ? 'w-full bg-white sm:max-w-[80%]' : 'max-w-full bg-sand-50 text-center sm:max-w-[80%]'
        } ${entry.type === 'note' ? 'border-l-4 border-brand-700' : ''}`}
      >
        <p className="text-xs text-brand-800">
          <time dateTime={entry.at}>{formatMeridaClock(entry.at)}</time>
          {entry.type === 'event' && entry.actor ? ` · ${entry.actor}` : ''}
          {entry.type === 'note' ? ` · Nota de ${entry.author}` : ''}
        </p>
        {entry.type === 'request' && (
          <>
            <h3 className="font-bold">Solicitud: {FORM_LABELS[entry.form]}</h3>
            <DeliveryList deliveries={entry.deliveries} label="Avisos al equipo de esta solicitud" />
            <dl className="grid gap-x-4 gap-y-0.5 sm:grid-cols-2">
              {entry.fields.map(([label, value]) => (
                <div key={label} className="flex gap-2">
                  <dt className="shrink-0 text-brand-700">{label}:</dt>
                  <dd className="min-w-0 wrap-anywhere">{value}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
        {entry.type === 'call' && (
          <>
            <h3 className="font-semibold">
              Llamada con el agente de voz · {formatDuration(entry.durationSeconds)} · {callEndWords(entry)}
            </h3>
            {entry.summary && <p className="wrap-anywhere">{entry.summary}</p>}
            <a
              href={`/admin/llamada?id=${entry.id}`}
              className="inline-flex min-h-11 items-center justify-center font-semibold underline"
            >
              Ver la conversación
            </a>
          </>
        )}
        {entry.type === 'event' && (
          <p className="font-semibold wrap-anywhere">{EVENT_TITLES[entry.kind]?.(entry) ?? entry.kind}</p>
        )}
        {entry.type === 'event' && entry.detail && <p className="whitespace-pre-wrap break-words">{entry.detail}</p>}
        {entry.type === 'note' && (
          <div className="flex items-start justify-between gap-3">
            <p className="min-w-0 whitespace-pre-wrap break-words">{entry.body}</p>
            {mayDeleteNote(notes.member, entry) && (
              <button
                type="button"
                className="min-h-11 shrink-0 rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-600/10"
                onClick={() => notes.remove(entry.id)}
                aria-label={`Eliminar nota del ${formatShortDate(entry.at)}`}
              >
                Eliminar
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
