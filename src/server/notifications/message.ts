import { site } from '../../data/site.ts';
import { COLUMNS, type LeadKind, type LeadRow } from '../../lib/admin/columns.ts';
import { type LeadForm, leadForm, whatsappLink } from '../../lib/admin/contacts.ts';
import type { Queryable } from '../db/database.ts';
import { LEAD_TABLE_OF_KIND } from '../leads/repository.ts';

/** The attribution of a visit, as stored with each lead. */
export const ATTRIBUTION_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'referrer',
  'landing_path',
] as const;

/** Everything a notification says about one lead, whatever the channel. */
export interface LeadMessage {
  leadId: string;
  kind: LeadKind;
  form: LeadForm;
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
  kind: LeadKind,
  leadId: string,
  siteUrl: string | undefined,
): Promise<LeadMessage | null> {
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
