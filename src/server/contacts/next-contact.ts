/**
 * The next contact of a contact, in SQL, in one place (issue #26): the column
 * is `next_contact_on date` today and becomes `next_contact_at timestamptz`;
 * everything the day's list ("Hoy") and its filters ask of it goes through
 * NEXT_CONTACT_AT, the moment as an instant (a date is its midnight in
 * Mérida), so moving to the new column changes this one line.
 */
export const NEXT_CONTACT_AT = `(c.next_contact_on::timestamp AT TIME ZONE 'America/Merida')`;

/** The start of the day in Mérida of the instant `$n` (a parameter: tests move "now" across midnight). */
export const meridaDayStart = (now: string) =>
  `(date_trunc('day', ${now}::timestamptz AT TIME ZONE 'America/Merida') AT TIME ZONE 'America/Merida')`;

/** The start of the next day in Mérida of the instant `$n`. */
export const meridaDayEnd = (now: string) =>
  `((date_trunc('day', ${now}::timestamptz AT TIME ZONE 'America/Merida') + interval '1 day') AT TIME ZONE 'America/Merida')`;

/** The states of a contact still being worked (not closed). */
export const OPEN_STATES = ['nuevo', 'contactado', 'en_seguimiento'];
export const OPEN = `c.state NOT IN ('cerrado_ganado', 'cerrado_perdido')`;
