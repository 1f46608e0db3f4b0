/**
 * What the administrator sees of each kind of lead: the columns (lib/leads/columns.ts)
 * and the registry's kinds (lib/leads/kinds.ts), under the name the panel imports.
 */
export * from '../leads/columns.ts';
export { COLUMNS, isLeadKind, LEAD_KINDS, type LeadKind } from '../leads/kinds.ts';
