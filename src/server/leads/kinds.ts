/**
 * The registry of lead kinds (lib/leads/kinds.ts) as SQL: the tables, a
 * form's condition, the UNION over every table. Everything is made from the
 * registry's names, never from a request, and each name is checked to be a
 * plain identifier before any SQL holds it.
 */
import {
  LEAD_KIND_REGISTRY,
  LEAD_KINDS_BY_FORM,
  type LeadForm,
  type LeadKind,
  type LeadKindDefinition,
  type LeadTable,
} from '../../lib/leads/kinds.ts';

const IDENTIFIER = /^[a-z][a-z_]*$/;
for (const entry of LEAD_KIND_REGISTRY as readonly LeadKindDefinition[]) {
  const names = [entry.table, entry.formColumn ?? 'source', ...entry.forms.map((form) => form.form)];
  const odd = names.find((name) => !IDENTIFIER.test(name));
  if (odd) throw new Error(`lead kind ${entry.kind}: "${odd}" is not a plain SQL name`);
}

/** Every table of leads, in the order of their forms. */
export const LEAD_TABLES = LEAD_KINDS_BY_FORM.map((entry) => entry.table as LeadTable);
export type { LeadTable };

/** The table of each kind of lead the panel and the API name. */
export const LEAD_TABLE_OF_KIND = Object.fromEntries(
  LEAD_KIND_REGISTRY.map((entry) => [entry.kind, entry.table]),
) as Record<LeadKind, LeadTable>;

/** The registry's entry of a table. */
export function kindOfTable(table: LeadTable): LeadKindDefinition & { kind: LeadKind } {
  return LEAD_KIND_REGISTRY.find((entry) => entry.table === table) as LeadKindDefinition & { kind: LeadKind };
}

/** The form of a row `l` of the kind's table, as SQL: its form column, or the one form as a literal. */
export function formOfRow(entry: LeadKindDefinition, alias = 'l'): string {
  return entry.formColumn ? `${alias}.${entry.formColumn}` : `'${entry.forms[0]?.form}'`;
}

/** SQL: contact `c` sent a lead of `form`. */
export function sentForm(form: LeadForm): string {
  const entry = LEAD_KINDS_BY_FORM.find((kind) => kind.forms.some((candidate) => candidate.form === form));
  if (!entry) throw new Error(`unknown form ${form}`);
  const which = entry.formColumn ? ` AND l.${entry.formColumn} = '${form}'` : '';
  return `EXISTS (SELECT 1 FROM ${entry.table} l WHERE l.contact_id = c.id${which})`;
}

/** SQL: the number of leads of contact `c`, every table summed. */
export const LEADS_OF_CONTACT = LEAD_TABLES.map(
  (table) => `(SELECT count(*) FROM ${table} l WHERE l.contact_id = c.id)`,
).join('\n    + ');

/**
 * SQL: contact `c` has nothing left that a person asked or did: no request of
 * any form, and no call, WhatsApp conversation, appointment or payment, nor
 * was it typed in by the team (`captured`). Deleting the last request of such
 * a contact deletes it; any of those keeps it (a booked, paid visit is never
 * lost with a duplicate quote).
 */
export const CONTACT_WITH_NOTHING_LEFT = [
  ...LEAD_TABLES,
  'voice_calls',
  'whatsapp_conversations',
  'appointments',
  'payments',
]
  .map((table) => `NOT EXISTS (SELECT 1 FROM ${table} WHERE contact_id = c.id)`)
  .concat(`NOT EXISTS (SELECT 1 FROM contact_events WHERE contact_id = c.id AND kind = 'captured')`)
  .join('\n         AND ');

/** `select(entry)` for every kind's table (aliased `l`), joined by UNION ALL, in the order of their forms. */
export function everyLeadTable(select: (entry: LeadKindDefinition) => string): string {
  return LEAD_KINDS_BY_FORM.map(select).join('\n    UNION ALL\n    ');
}

/** The paths of the panel's function for leads (netlify/functions/admin-leads.ts): list, one lead, export. */
export const ADMIN_LEAD_PATHS = LEAD_KIND_REGISTRY.flatMap(({ kind }) => [
  `/api/admin/${kind}`,
  `/api/admin/${kind}/:id`,
  `/api/admin/${kind}/export.csv`,
]);
