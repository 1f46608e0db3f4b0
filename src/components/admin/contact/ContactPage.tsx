import { useState } from 'react';
import { touchWords } from '../../../lib/admin/attribution.ts';
import { mayChangeIdentity } from '../../../lib/admin/contact-work.ts';
import { type ContactDetail, KIND_LABELS, STALE_VERSION } from '../../../lib/admin/contacts.ts';
import { attemptsText } from '../../../lib/admin/outcomes.ts';
import { isUuid } from '../../../lib/ids.ts';
import { ContactAppointments } from '../appointments/ContactAppointments.tsx';
import { STATE_BADGE } from '../contacts/badges.ts';
import { PanelQueries } from '../query.tsx';
import { usePanelUser } from '../session.ts';
import { BackLink, Loading, NotFound } from '../shared/ui.tsx';
import { lastList } from '../shared/url.ts';
import { ClaimButton } from './ClaimButton.tsx';
import { ContactActions } from './ContactActions.tsx';
import { Conversation } from './Conversation.tsx';
import { EditContact } from './EditContact.tsx';
import { FollowUpForm } from './FollowUpForm.tsx';
import { NoteForm } from './NoteForm.tsx';
import { Outcomes } from './Outcomes.tsx';
import { PersonalData } from './PersonalData.tsx';
import { useAssignable, useContact } from './page-queries.ts';
import { stateWords } from './words.ts';

/** The island of /admin/prospecto. */
export default function ContactPageIsland({ brand }: { brand: string }) {
  return (
    <PanelQueries>
      <ContactPage brand={brand} />
    </PanelQueries>
  );
}

/** /admin/prospecto?id=…: one person, everything they sent and everything the team did, and the next step. */
export function ContactPage({ brand }: { brand: string }) {
  const member = usePanelUser();
  const [id] = useState(() =>
    typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('id') ?? ''),
  );
  const [stale, setStale] = useState(false);
  // The list the member came from, with its filters (the panel keeps it: shared/url.ts).
  const [back] = useState(() => (typeof window === 'undefined' ? '/admin' : lastList()));
  const backLabel = new URLSearchParams(back.split('?')[1] ?? '').get('vista') === 'prospectos' ? 'Prospectos' : 'Hoy';
  const query = useContact(id, member !== null && isUuid(id));
  const members = useAssignable(member?.admin === true);
  const contact = query.data;

  if (member === null) return <Loading text="Cargando prospecto…" page />;
  if (!isUuid(id) || query.error?.status === 404)
    return <NotFound title="No encontramos este prospecto" href="/admin" back="Volver a Prospectos" />;
  if (!contact) return <Loading text="Cargando prospecto…" page />;

  return (
    <div className="grid min-w-0 gap-6">
      <BackLink href={back}>{backLabel}</BackLink>
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
          {contact.requests === 1 ? 'solicitud' : 'solicitudes'} · {attemptsText(contact.attempts)}
          {contact.municipality ? ` · ${contact.municipality}` : ''}
        </p>
        <OriginLine contact={contact} />
        <div className="flex flex-wrap items-start gap-2">
          <ClaimButton contact={contact} />
          {mayChangeIdentity(member, [contact.assignedTo?.id ?? null]) && (
            <EditContact contact={contact} onStale={() => setStale(true)} />
          )}
        </div>
      </header>

      <ContactActions contact={contact} brand={brand} />
      <Outcomes contact={contact} />
      <ContactAppointments contact={contact} />
      <Conversation contact={contact} member={member} />
      {stale && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-sand-200 p-4 font-semibold"
        >
          {STALE_VERSION}
          <button
            type="button"
            className="btn btn-primary min-h-11 px-4 py-2"
            onClick={() => void query.refetch().then(() => setStale(false))}
          >
            Recargar
          </button>
        </div>
      )}
      <FollowUpForm contact={contact} members={members} onStale={() => setStale(true)} />
      <NoteForm contactId={contact.id} />
      {member.admin && <PersonalData contact={contact} />}
    </div>
  );
}

/**
 * Where the person came from, in words (issue #43): their first touch, and
 * the last when it says something else ("Llegó por: Google Ads, campaña
 * «otono-2026» · Última vez: Anuncio de WhatsApp «…»").
 */
function OriginLine({ contact }: { contact: ContactDetail }) {
  const first = touchWords(contact.firstTouch);
  const last = touchWords(contact.lastTouch);
  return (
    <p className="text-sm text-brand-800" data-origin>
      <span className="font-semibold">Llegó por:</span> {first}
      {Object.keys(contact.lastTouch).length > 0 && last !== first && (
        <>
          {' · '}
          <span className="font-semibold">Última vez:</span> {last}
        </>
      )}
    </p>
  );
}
