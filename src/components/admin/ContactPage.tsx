import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { formatShortDate } from '../../lib/admin/columns.ts';
import {
  CONTACT_STATES,
  type ContactDetail,
  type ContactState,
  counted,
  FORM_LABELS,
  KIND_LABELS,
  LOST_REASON_LABELS,
  LOST_REASONS,
  type LostReason,
  NOTE_MAX,
  STALE_VERSION,
  STATE_LABELS,
  type TimelineEntry,
  whatsappLink,
} from '../../lib/admin/contacts.ts';
import type { TeamView } from '../../lib/admin/team.ts';
import { flashToast } from '../../lib/client/flash.ts';
import { showToast } from '../../lib/client/toast.ts';
import { endedReasonLabel, formatDuration } from '../../lib/voice/calls.ts';
import { apiCall, goTo } from './api.ts';
import { STATE_BADGE } from './ContactsView.tsx';
import { DeliveryList } from './Deliveries.tsx';
import { todayInMerida, usePanelUser } from './session.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A state as the history stores it ("cerrado_perdido:no_responde"), in words. */
function stateWords(value: string | null): string {
  if (!value) return '—';
  const [state, reason] = value.split(':');
  const label = STATE_LABELS[state as ContactState] ?? state ?? '';
  return reason ? `${label} (${LOST_REASON_LABELS[reason as LostReason] ?? reason})` : label;
}

/** /admin/prospecto?id=…: one person, everything they sent and everything the team did, and the next step. */
export default function ContactPage({ brand }: { brand: string }) {
  const member = usePanelUser();
  const email = member?.email ?? null;
  const [members, setMembers] = useState<{ id: string; name: string }[] | null>(null);
  const [contact, setContact] = useState<ContactDetail | null>(null);
  const [missing, setMissing] = useState(false);
  const [stale, setStale] = useState(false);
  const id = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('id');

  const load = useCallback(async () => {
    if (!id || !UUID.test(id)) return setMissing(true);
    const result = await apiCall<ContactDetail>(`/api/admin/contacts/${id}`).catch(() => null);
    if (result?.status === 401) return goTo('/auth');
    if (result?.status === 404) return setMissing(true);
    if (!result?.ok) return showToast({ title: 'Error al cargar el prospecto', variant: 'destructive' });
    setStale(false);
    setContact(result.body);
  }, [id]);

  useEffect(() => {
    if (email !== null) void load();
  }, [email, load]);
  // Administrators assign the contact: they need the active members.
  useEffect(() => {
    if (!member?.admin) return;
    apiCall<TeamView>('/api/admin/team')
      .then((result) =>
        setMembers(
          result.ok
            ? result.body.members
                .filter((entry) => entry.active)
                .map((entry) => ({ id: entry.id, name: entry.name ?? entry.email }))
            : [],
        ),
      )
      .catch(() => setMembers([]));
  }, [member]);

  if (email === null || (!contact && !missing)) {
    return (
      <p className="py-16 text-center text-brand-800" role="status">
        Cargando prospecto…
      </p>
    );
  }
  if (missing || !contact) {
    return (
      <div className="grid gap-4 py-16 text-center">
        <h1 className="text-2xl font-bold">No encontramos este prospecto</h1>
        <a href="/admin" className="btn btn-outline justify-self-center">
          Volver a Prospectos
        </a>
      </div>
    );
  }

  return (
    <div className="grid min-w-0 gap-6">
      <a
        href="/admin"
        className="justify-self-start text-sm font-semibold text-brand-800 underline-offset-4 hover:underline"
      >
        ← Prospectos
      </a>
      <header className="grid gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="wrap-anywhere text-2xl font-bold sm:text-3xl">{contact.name}</h1>
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${STATE_BADGE[contact.state]}`}>
            {stateWords(contact.state === 'cerrado_perdido' ? `${contact.state}:${contact.lostReason}` : contact.state)}
          </span>
          {contact.unattended && (
            <span className="rounded-full bg-danger-600 px-2.5 py-0.5 text-xs font-bold text-white">Sin atender</span>
          )}
        </div>
        <p className="text-brand-800">
          {contact.kinds.map((kind) => KIND_LABELS[kind]).join(' y ')} · {contact.requests}{' '}
          {contact.requests === 1 ? 'solicitud' : 'solicitudes'}
          {contact.municipality ? ` · ${contact.municipality}` : ''}
          {contact.firstCampaign ? ` · campaña ${contact.firstCampaign}` : ''}
        </p>
      </header>

      <ContactActions contact={contact} brand={brand} />
      {stale && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-sand-200 p-4 font-semibold"
        >
          {STALE_VERSION}
          <button type="button" className="btn btn-primary min-h-11 px-4 py-2" onClick={() => void load()}>
            Recargar
          </button>
        </div>
      )}
      <FollowUpForm contact={contact} members={members} onSaved={setContact} onStale={() => setStale(true)} />
      <NoteForm contactId={contact.id} onAdded={load} />
      <Timeline contact={contact} onChanged={load} />
      {member?.admin && <PersonalData contact={contact} />}
    </div>
  );
}

/**
 * The person's rights of access and cancellation (ARCO), for administrators:
 * everything stored about them as JSON or CSV, and erasing them whole after
 * a confirmation that says what goes.
 */
function PersonalData({ contact }: { contact: ContactDetail }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [erasing, setErasing] = useState(false);
  const calls = contact.timeline.filter((entry) => entry.type === 'call').length;
  const notes = contact.timeline.filter((entry) => entry.type === 'note').length;

  async function erase() {
    setErasing(true);
    const result = await apiCall<{ error?: string }>(`/api/admin/contacts/${contact.id}`, { method: 'DELETE' }).catch(
      () => null,
    );
    setErasing(false);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) {
      dialog.current?.close();
      return showToast({
        title: 'No se pudo eliminar a la persona',
        description: result?.body.error ?? 'Revisa tu conexión e intenta de nuevo.',
        variant: 'destructive',
      });
    }
    flashToast({ title: 'Persona eliminada', description: 'Se borraron todos sus datos.' });
    goTo('/admin');
  }

  return (
    <section
      aria-labelledby="personal-data-title"
      className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10"
    >
      <h2 id="personal-data-title" className="text-xl font-bold">
        Datos personales (derechos ARCO)
      </h2>
      <p className="text-sm text-brand-800">
        Si la persona pide sus datos, descárgalos y envíaselos. Si pide su cancelación, elimínala: se borra todo lo suyo
        y queda constancia en Actividad.
      </p>
      <div className="flex flex-wrap gap-2">
        <a
          href={`/api/admin/contacts/${contact.id}/datos.json`}
          download
          className="btn btn-outline min-h-11 px-4 py-2"
        >
          Descargar datos (JSON)
        </a>
        <a href={`/api/admin/contacts/${contact.id}/datos.csv`} download className="btn btn-outline min-h-11 px-4 py-2">
          Descargar datos (CSV)
        </a>
        <button
          type="button"
          className="btn min-h-11 bg-danger-600 px-4 py-2 text-white hover:bg-red-800"
          onClick={() => dialog.current?.showModal()}
        >
          Eliminar a esta persona
        </button>
      </div>
      <dialog
        ref={dialog}
        aria-labelledby="erase-title"
        className="m-auto w-[min(28rem,calc(100vw-1.5rem))] rounded-3xl bg-sand-50 p-6 text-brand-900 shadow-2xl backdrop:bg-brand-900/60"
      >
        <h2 id="erase-title" className="text-lg font-bold">
          ¿Eliminar a {contact.name}?
        </h2>
        <p className="mt-2">
          Se borrarán {counted(contact.requests, 'solicitud', 'solicitudes')}, {counted(calls, 'llamada', 'llamadas')},{' '}
          {counted(notes, 'nota', 'notas')}, su historial y sus avisos. No se puede deshacer.
        </p>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={() => dialog.current?.close()}>
            Cancelar
          </button>
          <button
            type="button"
            className="btn min-h-11 bg-danger-600 px-4 py-2 text-white hover:bg-red-800"
            disabled={erasing}
            onClick={() => void erase()}
          >
            {erasing ? 'Eliminando...' : 'Eliminar todo'}
          </button>
        </div>
      </dialog>
    </section>
  );
}

function ContactActions({ contact, brand }: { contact: ContactDetail; brand: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(contact.phone);
      showToast({ title: 'Teléfono copiado' });
    } catch {
      showToast({ title: 'No se pudo copiar el teléfono', variant: 'destructive' });
    }
  }
  return (
    <section aria-label="Contactar" className="grid grid-cols-1 gap-2 sm:grid-cols-3">
      <a
        href={whatsappLink(contact.phone, contact.name, brand)}
        target="_blank"
        rel="noopener"
        className="btn btn-primary min-h-12"
      >
        WhatsApp
      </a>
      <a href={`tel:${contact.phone}`} className="btn btn-outline min-h-12">
        Llamar {contact.phone}
      </a>
      <button type="button" className="btn btn-outline min-h-12" onClick={copy}>
        Copiar teléfono
      </button>
    </section>
  );
}

function FollowUpForm({
  contact,
  members,
  onSaved,
  onStale,
}: {
  contact: ContactDetail;
  /** The active members, for an administrator (who assigns); null for an adviser. */
  members: { id: string; name: string }[] | null;
  onSaved(contact: ContactDetail): void;
  onStale(): void;
}) {
  const [state, setState] = useState<ContactState>(contact.state);
  const [assigned, setAssigned] = useState(contact.assignedTo?.id ?? '');
  const [reason, setReason] = useState<LostReason | ''>(contact.lostReason ?? '');
  const [next, setNext] = useState(contact.nextContactAt ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setState(contact.state);
    setReason(contact.lostReason ?? '');
    setNext(contact.nextContactAt ?? '');
    setAssigned(contact.assignedTo?.id ?? '');
  }, [contact]);
  const overdue = contact.nextContactAt !== null && contact.nextContactAt < todayInMerida();

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (state === 'cerrado_perdido' && !reason) return setError('Elige el motivo por el que se perdió.');
    setSaving(true);
    const result = await apiCall<ContactDetail & { error?: string; fields?: Record<string, string> }>(
      `/api/admin/contacts/${contact.id}`,
      {
        method: 'PATCH',
        body: JSON.stringify({
          state,
          lostReason: state === 'cerrado_perdido' ? reason : null,
          nextContactAt: next || null,
          ...(members ? { assignedTo: assigned || null } : {}),
          version: contact.version,
        }),
      },
    ).catch(() => null);
    setSaving(false);
    if (result?.status === 401) return goTo('/auth');
    if (result?.status === 409) return onStale();
    if (!result?.ok) {
      const message = result?.body.fields ? Object.values(result.body.fields)[0] : result?.body.error;
      return setError(message ?? 'No se pudo guardar el cambio. Intenta de nuevo.');
    }
    onSaved(result.body);
    showToast({ title: 'Cambios guardados' });
  }

  return (
    <form
      onSubmit={save}
      className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10 sm:grid-cols-3 sm:items-end"
      aria-label="Seguimiento"
    >
      <label className="field">
        <span className="field-label">Estado</span>
        <select
          className="field-input"
          value={state}
          onChange={(event) => setState(event.target.value as ContactState)}
        >
          {CONTACT_STATES.map((value) => (
            <option key={value} value={value}>
              {STATE_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      {state === 'cerrado_perdido' && (
        <label className="field">
          <span className="field-label">Motivo</span>
          <select
            className="field-input"
            value={reason}
            onChange={(event) => setReason(event.target.value as LostReason)}
            aria-invalid={error !== null && !reason}
          >
            <option value="">Elige un motivo</option>
            {LOST_REASONS.map((value) => (
              <option key={value} value={value}>
                {LOST_REASON_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
      )}
      {members ? (
        <label className="field">
          <span className="field-label">Asignado a</span>
          <select className="field-input" value={assigned} onChange={(event) => setAssigned(event.target.value)}>
            <option value="">Sin asignar</option>
            {members.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="field">
          <span className="field-label">Asignado a</span>
          <span className="py-2">{contact.assignedTo?.name ?? 'Sin asignar'}</span>
        </p>
      )}
      <label className="field">
        <span className="field-label">Próximo contacto{overdue ? ' (vencido)' : ''}</span>
        <input
          type="date"
          className={`field-input ${overdue ? 'text-danger-600' : ''}`}
          value={next}
          onChange={(event) => setNext(event.target.value)}
        />
      </label>
      <button type="submit" className="btn btn-primary min-h-12" disabled={saving}>
        {saving ? 'Guardando…' : 'Guardar cambios'}
      </button>
      {error && (
        <p role="alert" className="field-error sm:col-span-3">
          {error}
        </p>
      )}
    </form>
  );
}

function NoteForm({ contactId, onAdded }: { contactId: string; onAdded(): Promise<void> }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  async function add(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) return setError('Escribe la nota.');
    setSaving(true);
    const result = await apiCall<{ error?: string; fields?: Record<string, string> }>(
      `/api/admin/contacts/${contactId}/notes`,
      {
        method: 'POST',
        body: JSON.stringify({ body }),
      },
    ).catch(() => null);
    setSaving(false);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) return setError(result?.body.fields?.body ?? 'No se pudo guardar la nota. Intenta de nuevo.');
    setBody('');
    setError(null);
    await onAdded();
    showToast({ title: 'Nota agregada' });
  }
  return (
    <form
      onSubmit={add}
      className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10"
      aria-label="Agregar nota"
    >
      <div className="field">
        <label className="field-label" htmlFor="note-body">
          Nota
        </label>
        <textarea
          id="note-body"
          className="field-input min-h-24"
          value={body}
          maxLength={NOTE_MAX}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={error !== null}
          aria-describedby="note-hint"
        />
        <span id="note-hint" className="field-hint">
          {body.length.toLocaleString('es-MX')} de {NOTE_MAX.toLocaleString('es-MX')} caracteres
        </span>
      </div>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-outline min-h-12 justify-self-start" disabled={saving}>
        {saving ? 'Guardando…' : 'Agregar nota'}
      </button>
    </form>
  );
}

const EVENT_TITLES: Record<string, (entry: Extract<TimelineEntry, { type: 'event' }>) => string> = {
  state: (entry) => `Estado: ${stateWords(entry.from)} → ${stateWords(entry.to)}`,
  next_contact: (entry) => `Próximo contacto: ${entry.from ?? '—'} → ${entry.to ?? '—'}`,
  reopened: (entry) => `Reabierto por una nueva solicitud (antes: ${stateWords(entry.from)})`,
  note_deleted: (entry) => `Nota eliminada: «${entry.from ?? ''}»`,
  assigned: (entry) => `Asignado: ${entry.from ?? 'sin asignar'} → ${entry.to ?? 'sin asignar'}`,
};

function Timeline({ contact, onChanged }: { contact: ContactDetail; onChanged(): Promise<void> }) {
  async function removeNote(noteId: string) {
    if (!window.confirm('¿Eliminar esta nota? Quedará registrado en el historial.')) return;
    const result = await apiCall(`/api/admin/contacts/${contact.id}/notes/${noteId}`, { method: 'DELETE' }).catch(
      () => null,
    );
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) return showToast({ title: 'No se pudo eliminar la nota', variant: 'destructive' });
    await onChanged();
    showToast({ title: 'Nota eliminada' });
  }
  const entries = [...contact.timeline].reverse();
  return (
    <section aria-labelledby="timeline-title" className="grid gap-3">
      <h2 id="timeline-title" className="text-xl font-bold">
        Historial
      </h2>
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
            {entry.type === 'note' && (
              <div className="mt-1 flex items-start justify-between gap-3">
                <p className="min-w-0 whitespace-pre-wrap break-words">{entry.body}</p>
                <button
                  type="button"
                  className="min-h-11 shrink-0 rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-600/10"
                  onClick={() => removeNote(entry.id)}
                  aria-label={`Eliminar nota del ${formatShortDate(entry.at)}`}
                >
                  Eliminar
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
