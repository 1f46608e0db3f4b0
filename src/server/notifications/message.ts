import { site } from '../../data/site.ts';
import { ATTRIBUTION_KEYS } from '../../lib/admin/attribution.ts';
import { COLUMNS, type LeadRow } from '../../lib/admin/columns.ts';
import { type LeadForm, leadForm, whatsappLink } from '../../lib/admin/contacts.ts';
import type { NotifiedKind } from '../../lib/admin/notifications.ts';
import { CALL_KIND, endedReasonLabel, formatDuration } from '../../lib/voice/calls.ts';
import type { Queryable } from '../db/database.ts';
import { LEAD_TABLE_OF_KIND } from '../leads/repository.ts';

/** Everything a notification says about one lead, whatever the channel. */
export interface LeadMessage {
  leadId: string;
  kind: NotifiedKind;
  /** The form, or `llamada` for a voice call. */
  form: LeadForm | 'llamada';
  /** "Nueva estimación" */
  title: string;
  /** "Nueva estimación: Ana López (Mérida)" */
  subject: string;
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
}

const TITLES: Record<LeadForm, string> = {
  cotizacion_rapida: 'Nueva cotización rápida',
  prefiltro: 'Nuevo prefiltro',
  estimacion: 'Nueva estimación',
  socios: 'Nueva evaluación de socio',
};

const ATTRIBUTION_HEADERS = new Set(['Campaña', ...ATTRIBUTION_KEYS, 'Referencia', 'Página de llegada']);

/** The public address of the site (SITE_URL, or the one in src/data/site.json), without a trailing slash. */
export function siteAddress(siteUrl: string | undefined): string {
  return (siteUrl ?? site.siteUrl).replace(/\/+$/, '');
}

/** The lead, or null when it was deleted since its notification was queued. */
export async function leadMessage(
  db: Queryable,
  kind: NotifiedKind,
  leadId: string,
  siteUrl: string | undefined,
): Promise<LeadMessage | null> {
  if (kind === CALL_KIND) return callMessage(db, leadId, siteUrl);
  const { rows } = await db.query<LeadRow & { contact_id: string }>(
    `SELECT * FROM ${LEAD_TABLE_OF_KIND[kind]} WHERE id = $1`,
    [leadId],
  );
  const row = rows[0];
  if (!row) return null;
  const form = leadForm(kind, row);
  const name = String(row.name);
  const phone = String(row.phone);
  const municipality = typeof row.municipality === 'string' && row.municipality ? row.municipality : null;
  const title = TITLES[form];
  const panel = `${siteAddress(siteUrl)}/admin/prospecto?id=${row.contact_id}`;
  const data = Object.fromEntries(
    Object.entries(row).filter(([key]) => !['idempotency_key', 'idempotency_fingerprint'].includes(key)),
  ) as Record<string, string | number | null>;
  data.created_at = new Date(row.created_at).toISOString();
  return {
    leadId,
    kind,
    form,
    title,
    subject: `${title}: ${name}${municipality ? ` (${municipality})` : ''}`,
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
  };
}

/** A voice call that left a phone, told like a form's request: who, what they want, how the call went. */
async function callMessage(db: Queryable, id: string, siteUrl: string | undefined): Promise<LeadMessage | null> {
  const { rows } = await db.query<{
    id: string;
    contact_id: string | null;
    name: string | null;
    phone: string | null;
    email: string | null;
    interest: string | null;
    summary: string | null;
    ended_reason: string | null;
    duration_seconds: string | null;
    page_path: string | null;
    created_at: Date;
    contact_name: string | null;
    attribution: Record<string, string | null>;
  }>(
    `SELECT v.id, v.contact_id, v.name, v.phone, v.email, v.interest, v.summary, v.ended_reason,
            v.duration_seconds, v.page_path, v.created_at, c.name AS contact_name,
            jsonb_build_object('utm_source', v.utm_source, 'utm_medium', v.utm_medium, 'utm_campaign', v.utm_campaign,
              'utm_term', v.utm_term, 'utm_content', v.utm_content, 'referrer', v.referrer,
              'landing_path', v.landing_path) AS attribution
     FROM voice_calls v LEFT JOIN contacts c ON c.id = v.contact_id WHERE v.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row?.phone || !row.contact_id) return null;
  const name = row.name ?? row.contact_name ?? 'Visitante';
  const title = 'Nueva llamada con el agente de voz';
  const duration = row.duration_seconds === null ? null : Number(row.duration_seconds);
  const fields = [
    { label: 'Interés', value: row.interest ?? '' },
    { label: 'Resumen', value: row.summary ?? '' },
    { label: 'Duración', value: duration === null ? '' : formatDuration(duration) },
    { label: 'Fin de la llamada', value: row.ended_reason ? endedReasonLabel(row.ended_reason) : '' },
    { label: 'Página', value: row.page_path ?? '' },
    { label: 'Correo', value: row.email ?? '' },
  ].filter((field) => field.value !== '');
  const attribution = Object.fromEntries(
    Object.entries(row.attribution).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  return {
    leadId: row.id,
    kind: CALL_KIND,
    form: 'llamada',
    title,
    subject: `${title}: ${name}`,
    name,
    phone: row.phone,
    email: row.email,
    municipality: null,
    createdAt: new Date(row.created_at).toISOString(),
    fields,
    attribution,
    data: {
      id: row.id,
      name: row.name,
      phone: row.phone,
      email: row.email,
      interest: row.interest,
      summary: row.summary,
      ended_reason: row.ended_reason,
      duration_seconds: duration,
      page_path: row.page_path,
      created_at: new Date(row.created_at).toISOString(),
      ...attribution,
    },
    contactId: row.contact_id,
    links: {
      panel: `${siteAddress(siteUrl)}/admin/llamada?id=${row.id}`,
      whatsapp: whatsappLink(row.phone, name, site.brand.name),
      phone: `tel:${row.phone}`,
    },
  };
}
