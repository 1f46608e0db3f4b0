import { originWords } from '../../../data/lead-origins.ts';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { type ContactDetail, FORM_LABELS, mayDeleteNote, type TimelineEntry } from '../../../lib/admin/contacts.ts';
import { formatNextContact } from '../../../lib/admin/merida-time.ts';
import { OUTCOMES, type OutcomeKey } from '../../../lib/admin/outcomes.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { endedReasonLabel, formatDuration } from '../../../lib/voice/calls.ts';
import { DeliveryList } from '../shared/Deliveries.tsx';
import { Section } from '../shared/ui.tsx';
import { useRemoveNote } from './queries.ts';
import { stateWords } from './words.ts';

const ATTEMPT_TITLES: Record<string, string> = {
  llamada: 'Llamó (intento)',
  whatsapp: 'Escribió por WhatsApp (intento)',
};

/** A next contact in the history: an instant in Mérida's time (a date alone, from before issue #26, as it was). */
const moment = (value: string | null): string =>
  value === null ? '—' : value.length === 10 ? value : formatNextContact(value);

/** Each change the history records, in words. */
const EVENT_TITLES: Record<string, (entry: Extract<TimelineEntry, { type: 'event' }>) => string> = {
  state: (entry) => `Estado: ${stateWords(entry.from)} → ${stateWords(entry.to)}`,
  next_contact: (entry) => `Próximo contacto: ${moment(entry.from)} → ${moment(entry.to)}`,
  outcome: (entry) => `Resultado: ${OUTCOMES[entry.to as OutcomeKey]?.label ?? entry.to ?? ''}`,
  attempt: (entry) => ATTEMPT_TITLES[entry.to ?? ''] ?? 'Intento de contacto',
  reopened: (entry) => `Reabierto por una nueva solicitud (antes: ${stateWords(entry.from)})`,
  note_deleted: (entry) => `Nota eliminada: «${entry.from ?? ''}»`,
  assigned: (entry) => `Asignado: ${entry.from ?? 'sin asignar'} → ${entry.to ?? 'sin asignar'}`,
  claimed: (entry) => `Tomado por ${entry.to ?? entry.actor ?? ''}`,
  captured: (entry) => `Capturado por ${entry.actor ?? 'el equipo'} (${originWords(entry.to)})`,
  name: (entry) => `Nombre: ${entry.from ?? '—'} → ${entry.to ?? '—'}`,
  phone: (entry) => `Teléfono: ${entry.from ?? '—'} → ${entry.to ?? '—'}`,
  email: (entry) => `Correo: ${entry.from ?? '—'} → ${entry.to ?? '—'}`,
  whatsapp_opt_out: (entry) => `WhatsApp: se dio de baja («${entry.to ?? ''}»)`,
  whatsapp_template: (entry) => `WhatsApp: plantilla «${entry.to ?? ''}» enviada`,
  merged: (entry) =>
    `Unido con ${entry.from ?? 'otro prospecto'} (${entry.to ?? ''}): sus solicitudes, notas e historial están aquí`,
};

/**
 * The contact's history, newest first. "Eliminar" shows on the notes `member`
 * may delete (an adviser their own, an administrator any; the server refuses
 * the rest with a 403).
 */
export function Timeline({ contact, member }: { contact: ContactDetail; member: { id: string; admin: boolean } }) {
  const remove = useRemoveNote(contact.id);
  function removeNote(noteId: string) {
    if (!window.confirm('¿Eliminar esta nota? Quedará registrado en el historial.')) return;
    remove.mutate(noteId, { onSuccess: () => showToast({ title: 'Nota eliminada' }) });
  }
  const entries = [...contact.timeline].reverse();
  return (
    <Section title="Historial">
      <ol className="grid gap-3">
        {entries.map((entry) => (
          <li
            key={`${entry.type}-${entry.at}-${entry.type === 'event' ? entry.kind : entry.id}`}
            className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10"
          >
            <p className="text-xs text-brand-700">
              <time dateTime={entry.at}>{formatShortDate(entry.at)}</time>
              {entry.type === 'event' && entry.actor ? ` · ${entry.actor}` : ''}
              {entry.type === 'note' ? ` · ${entry.author}` : ''}
            </p>
            {entry.type === 'request' && (
              <>
                <h3 className="mt-1 font-bold">Solicitud: {FORM_LABELS[entry.form]}</h3>
                <div className="mt-2">
                  <DeliveryList deliveries={entry.deliveries} label="Avisos al equipo de esta solicitud" />
                </div>
                <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
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
                <h3 className="mt-1 font-bold">
                  Llamada con el agente de voz · {formatDuration(entry.durationSeconds)} ·{' '}
                  {endedReasonLabel(entry.endedReason)}
                </h3>
                {entry.summary && <p className="mt-1 text-sm wrap-anywhere">{entry.summary}</p>}
                <a href={`/admin/llamada?id=${entry.id}`} className="mt-2 inline-block font-semibold underline">
                  Ver la conversación
                </a>
              </>
            )}
            {entry.type === 'event' && (
              <p className="mt-1 font-semibold">{EVENT_TITLES[entry.kind]?.(entry) ?? entry.kind}</p>
            )}
            {entry.type === 'event' && entry.detail && (
              <p className="mt-1 whitespace-pre-wrap break-words">{entry.detail}</p>
            )}
            {entry.type === 'note' && (
              <div className="mt-1 flex items-start justify-between gap-3">
                <p className="min-w-0 whitespace-pre-wrap break-words">{entry.body}</p>
                {mayDeleteNote(member, entry) && (
                  <button
                    type="button"
                    className="min-h-11 shrink-0 rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-600/10"
                    onClick={() => removeNote(entry.id)}
                    aria-label={`Eliminar nota del ${formatShortDate(entry.at)}`}
                  >
                    Eliminar
                  </button>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}
