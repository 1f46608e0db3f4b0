/**
 * The next contact's SQL, in one place (issue #26): the column is an instant
 * (`timestamptz`), entered and shown in Mérida's time by the panel. Lists,
 * figures and reminders use these expressions, so an order or a count of
 * "due" contacts means the same everywhere. `c` is the contacts' alias.
 */

/** The column: when the next contact is due. */
export const NEXT_CONTACT = 'c.next_contact_at';

/** A contact still being worked (closed ones get no reminders and are never "due"). */
export const OPEN_CONTACT = "c.state NOT IN ('cerrado_ganado', 'cerrado_perdido')";

/** Due now or before: when a reminder leaves (the badge counts OVERDUE, Mérida's days, not this). */
export const NEXT_CONTACT_DUE = `(${NEXT_CONTACT} <= now() AND ${OPEN_CONTACT})`;

/** Soonest first, contacts without a next contact last (the "Hoy" order). */
export const NEXT_CONTACT_ORDER = `${NEXT_CONTACT} ASC NULLS LAST`;

/** A due next contact whose reminder is still to be sent (its partial index: contacts_reminder_due_idx). */
export const REMINDER_PENDING = `(${NEXT_CONTACT} IS NOT NULL AND c.reminded_for IS DISTINCT FROM ${NEXT_CONTACT})`;

/** A `timestamptz` as the API gives it: ISO 8601 in UTC, or null. */
export const isoInstant = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** The moment, as the "Hoy" view orders and filters by it (the column itself, an instant). */
export const NEXT_CONTACT_AT = NEXT_CONTACT;

/** The start of the day in Mérida of the instant `$n` (a parameter: tests move "now" across midnight). */
export const meridaDayStart = (now: string) =>
  `(date_trunc('day', ${now}::timestamptz AT TIME ZONE 'America/Merida') AT TIME ZONE 'America/Merida')`;

/** The start of the next day in Mérida of the instant `$n`. */
export const meridaDayEnd = (now: string) =>
  `((date_trunc('day', ${now}::timestamptz AT TIME ZONE 'America/Merida') + interval '1 day') AT TIME ZONE 'America/Merida')`;

/**
 * "Vencido", the one definition (issue #38, decision 0053): an open contact
 * whose next contact was set for a day before today in Mérida. The badge, the
 * "Vencidos" of "Hoy", the card of "Métricas" and the list's `agenda=vencidos`
 * count it with this fragment (`overdueCount` in today.ts is the count).
 * `now`: SQL for the instant of "now" (a placeholder or `now()`).
 */
export const OVERDUE = (now: string) => `${OPEN_CONTACT} AND ${BEFORE_TODAY(now)}`;

/** OVERDUE's moment alone, for a count whose WHERE already keeps the open contacts (an index-only pass). */
export const BEFORE_TODAY = (now: string) => `${NEXT_CONTACT_AT} < ${meridaDayStart(now)}`;

/** The states of a contact still being worked (not closed). */
export const OPEN_STATES = ['nuevo', 'contactado', 'en_seguimiento', 'visita_agendada', 'visito'];
export const OPEN = OPEN_CONTACT;
