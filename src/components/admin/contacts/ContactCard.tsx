import { formatShortDate } from '../../../lib/admin/columns.ts';
import { type ContactSummary, counted, KIND_LABELS, STATE_LABELS } from '../../../lib/admin/contacts.ts';
import { isOverdue } from '../../../lib/admin/merida-time.ts';
import { attemptsText } from '../../../lib/admin/outcomes.ts';
import { formatPhone } from '../../../lib/forms/phone.ts';
import { ClaimButton } from '../contact/ClaimButton.tsx';
import { Outcomes } from '../contact/Outcomes.tsx';
import { STATE_BADGE } from './badges.ts';

/**
 * One person in the list: name, phone, state, and what the team needs at a glance;
 * "Tomar" while nobody follows them; a checkbox when the list selects (administrators).
 */
export function ContactCard({
  contact,
  selected,
  onSelect,
}: {
  contact: ContactSummary;
  today?: string;
  selected?: boolean;
  onSelect?(checked: boolean): void;
}) {
  const overdue = contact.nextContactAt !== null && isOverdue(contact.nextContactAt);
  return (
    <li
      className={`min-w-0 rounded-2xl bg-white p-4 ring-1 ${contact.unattended ? 'ring-2 ring-terracotta-500' : 'ring-brand-900/10'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        {onSelect && (
          <label className="-m-2 flex size-11 shrink-0 cursor-pointer items-center justify-center">
            <input
              type="checkbox"
              className="size-5 accent-brand-900"
              checked={selected === true}
              onChange={(event) => onSelect(event.target.checked)}
              aria-label={`Seleccionar a ${contact.name}`}
            />
          </label>
        )}
        <div className="grid min-w-0 flex-1 gap-1">
          <a
            href={`/admin/prospecto?id=${contact.id}`}
            className="flex min-h-11 items-center wrap-anywhere text-lg font-bold text-brand-900 underline-offset-4 hover:underline"
          >
            {contact.name}
          </a>
          <span className="text-sm text-brand-800">
            {formatPhone(contact.phone)}
            {contact.municipality ? ` · ${contact.municipality}` : ''}
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          {contact.unattended && (
            <span className="rounded-full bg-danger-600 px-2.5 py-0.5 text-xs font-bold text-white">Sin atender</span>
          )}
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${STATE_BADGE[contact.state]}`}>
            {STATE_LABELS[contact.state]}
          </span>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-brand-700">Última actividad</dt>
          <dd>{formatShortDate(contact.lastActivityAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Solicitudes</dt>
          <dd>
            {counted(contact.requests, 'solicitud', 'solicitudes')} ·{' '}
            {contact.kinds.map((kind) => KIND_LABELS[kind]).join(' y ')}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Intentos</dt>
          <dd>{attemptsText(contact.attempts)}</dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Próximo contacto</dt>
          <dd className={overdue ? 'font-bold text-danger-600' : ''}>
            {contact.nextContactAt ? `${formatShortDate(contact.nextContactAt)}${overdue ? ' (vencido)' : ''}` : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Campaña</dt>
          <dd className="wrap-anywhere">{contact.firstCampaign ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Asignado a</dt>
          <dd className="wrap-anywhere">{contact.assignedTo?.name ?? 'Sin asignar'}</dd>
        </div>
      </dl>
      <ClaimButton contact={contact} className="mt-3 w-full sm:w-auto" />
      <div className="mt-3">
        <Outcomes contact={contact} />
      </div>
    </li>
  );
}
