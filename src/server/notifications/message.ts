import { site } from '../../data/site.ts';
import { ATTRIBUTION_KEYS } from '../../lib/admin/attribution.ts';
import { COLUMNS, type LeadRow } from '../../lib/admin/columns.ts';
import { type LeadForm, leadForm, whatsappLink } from '../../lib/admin/contacts.ts';
import type { NotifiedKind } from '../../lib/admin/notifications.ts';
import { FORM_NOTICES } from '../../lib/leads/kinds.ts';
import { nameOrPhone, realName } from '../../lib/person-name.ts';
import { CALL_KIND, endedReasonLabel, formatDuration } from '../../lib/voice/calls.ts';
import type { Queryable } from '../db/database.ts';
import { LEAD_TABLE_OF_KIND } from '../leads/repository.ts';
import { getCall } from '../voice/call-store.ts';

/** Everything a notification says about one lead, whatever the channel. */
export interface LeadMessage {
  leadId: string;
  kind: NotifiedKind;
  /** The form, or `llamada` for a voice call. */
  form: LeadForm | 'llamada';
  /** "Nueva estimación" */
  title: string;
  /**
   * "Nueva estimación: Ana López (Mérida)": the name and place only when they
   * read as a name and a place (src/lib/person-name.ts), else the phone.
   */
  subject: string;
  /** The subject's part after the title: "Ana López (Mérida)", "999 404 0404". */
  headline: string;
  name: string;
  phone: string;
  email: string | null;
  municipality: string | null;
  createdAt: string;
  /** The request's fields as the panel shows them, in Spanish, without the empty ones. */
  fields: { label: string; value: string }[];
  attribution: Partial<Record<(typeof ATTRIBUTION_KEYS)[number], string>>;
  /** The stored columns, for machines (the webhook). */
  data: Record<string, string | number | null>;
  contactId: string;
  links: { panel: string; whatsapp: string; phone: string };
  /**
   * The person already bought (their contact is `cerrado_ganado`, and stays so:
   * decision 0052): the e-mail says so and also goes to their adviser (null:
   * nobody active follows them). Null for anyone else.
   */
  sale: { adviserEmail: string | null } | null;
}

/** The won contact's adviser, as `sale` gives it: two columns read with the lead's row. */
const SALE_COLUMNS = `c.state = 'cerrado_ganado' AS contact_won,
  (SELECT u.email FROM users u WHERE u.id = c.assigned_to AND u.deactivated_at IS NULL) AS contact_adviser_email`;
type SaleColumns = { contact_won: boolean; contact_adviser_email: string | null };
const saleOf = (row: SaleColumns | undefined): LeadMessage['sale'] =>
  row?.contact_won ? { adviserEmail: row.contact_adviser_email } : null;

const ATTRIBUTION_HEADERS = new Set(['Campaña', ...ATTRIBUTION_KEYS, 'Referencia', 'Página de llegada']);

/** The lead, or null when it was deleted since its notification was queued. */
export async function leadMessage(
  db: Queryable,
  kind: NotifiedKind,
  leadId: string,
  /** publicSiteUrl(): the links start with it. */
  siteUrl: string,
): Promise<LeadMessage | null> {
  if (kind === CALL_KIND) return callMessage(db, leadId, siteUrl);
  const { rows } = await db.query<LeadRow & { contact_id: string } & SaleColumns>(
    `SELECT l.*, ${SALE_COLUMNS} FROM ${LEAD_TABLE_OF_KIND[kind]} l LEFT JOIN contacts c ON c.id = l.contact_id
     WHERE l.id = $1`,
    [leadId],
  );
  const found = rows[0];
  if (!found) return null;
  const { contact_won: _won, contact_adviser_email: _adviser, ...row } = found;
  const form = leadForm(kind, row);
  const name = String(row.name);
  const phone = String(row.phone);
  const municipality = typeof row.municipality === 'string' && row.municipality ? row.municipality : null;
  const title = FORM_NOTICES[form];
  const place = realName(municipality);
  const headline = `${nameOrPhone(name, phone)}${place ? ` (${place})` : ''}`;
  const panel = `${siteUrl}/admin/prospecto?id=${row.contact_id}`;
  const data = Object.fromEntries(
    Object.entries(row).filter(([key]) => !['idempotency_key', 'idempotency_fingerprint'].includes(key)),
  ) as Record<string, string | number | null>;
  data.created_at = new Date(row.created_at).toISOString();
  return {
    leadId,
    kind,
    form,
    title,
    subject: `${title}: ${headline}`,
    headline,
    name,
    phone,
    email: typeof row.email === 'string' && row.email ? row.email : null,
    municipality,
    createdAt: new Date(row.created_at).toISOString(),
    fields: COLUMNS[kind]
      .filter((column) => !ATTRIBUTION_HEADERS.has(column.header))
      .map((column) => ({ label: column.header, value: column.value(row) }))
      .filter((entry) => entry.value !== ''),
    attribution: Object.fromEntries(
      ATTRIBUTION_KEYS.filter((key) => row[key] !== null && row[key] !== undefined && row[key] !== '').map((key) => [
        key,
        String(row[key]),
      ]),
    ),
    data,
    contactId: row.contact_id,
    links: { panel, whatsapp: whatsappLink(phone, name, site.brand.name), phone: `tel:${phone}` },
    sale: saleOf(found),
  };
}

/** A voice call that left a phone, told like a form's request: who, what they want, how the call went. */
async function callMessage(db: Queryable, id: string, siteUrl: string): Promise<LeadMessage | null> {
  const call = await getCall(db, id);
  if (!call?.phone || !call.contactId) return null;
  const { rows } = await db.query<SaleColumns>(`SELECT ${SALE_COLUMNS} FROM contacts c WHERE c.id = $1`, [
    call.contactId,
  ]);
  const name = call.name ?? call.contactName ?? 'Visitante';
  const title = 'Nueva llamada con el agente de voz';
  const fields = [
    { label: 'Interés', value: call.interest ?? '' },
    { label: 'Resumen', value: call.summary ?? '' },
    { label: 'Duración', value: call.durationSeconds === null ? '' : formatDuration(call.durationSeconds) },
    { label: 'Fin de la llamada', value: call.endedReason ? endedReasonLabel(call.endedReason) : '' },
    { label: 'Página', value: call.page ?? '' },
    { label: 'Correo', value: call.email ?? '' },
  ].filter((field) => field.value !== '');
  return {
    leadId: call.id,
    kind: CALL_KIND,
    form: 'llamada',
    title,
    subject: `${title}: ${nameOrPhone(name, call.phone)}`,
    headline: nameOrPhone(name, call.phone),
    name,
    phone: call.phone,
    email: call.email,
    municipality: null,
    createdAt: call.at,
    fields,
    attribution: call.attribution,
    data: {
      id: call.id,
      name: call.name,
      phone: call.phone,
      email: call.email,
      interest: call.interest,
      summary: call.summary,
      ended_reason: call.endedReason,
      duration_seconds: call.durationSeconds,
      page_path: call.page,
      created_at: call.at,
      ...call.attribution,
    },
    contactId: call.contactId,
    links: {
      panel: `${siteUrl}/admin/llamada?id=${call.id}`,
      whatsapp: whatsappLink(call.phone, name, site.brand.name),
      phone: `tel:${call.phone}`,
    },
    sale: saleOf(rows[0]),
  };
}
