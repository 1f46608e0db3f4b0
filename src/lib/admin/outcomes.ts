/**
 * The one-tap outcomes of a contact attempt (issue #26): the team's list is
 * the data file src/data/outcomes.ts; here is what the panel and the server
 * make of it. Browser-safe: the panel shows it and the server applies it.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { OUTCOMES, type Outcome } from '../../data/outcomes.ts';
import { type ContactState, instantSchema, isClosed, LOST_REASONS, type LostReason } from './contacts.ts';
import { multiLineChecks } from './text.ts';

export { OUTCOMES, type Outcome };

export type OutcomeKey = keyof typeof OUTCOMES;
export const OUTCOME_KEYS = Object.keys(OUTCOMES) as [OutcomeKey, ...OutcomeKey[]];

/** The open states in the order a contact advances through them. */
const OPEN_ORDER: ContactState[] = ['nuevo', 'contactado', 'en_seguimiento', 'visita_agendada', 'visito'];

/**
 * The state after an outcome: a closing one closes an open contact; an open
 * one only moves a contact forward (a "Hablamos" never sends an
 * en_seguimiento back to contactado). A closed contact stays as it is, won or
 * lost: reopening it or closing it the other way is the state's own change,
 * checked against the version the member saw (an outcome pressed on a card
 * loaded before the sale was won must not lose it).
 */
export function stateAfter(current: ContactState, outcome: Outcome): ContactState {
  const target = outcome.state;
  if (!target || isClosed(current)) return current;
  if (!OPEN_ORDER.includes(target)) return target;
  const from = OPEN_ORDER.indexOf(current);
  return from !== -1 && from < OPEN_ORDER.indexOf(target) ? target : current;
}

/** The ways to reach a person whose press is recorded as an attempt. */
export const ATTEMPT_CHANNELS = { llamada: 'Llamada', whatsapp: 'WhatsApp' } as const;
export type AttemptChannel = keyof typeof ATTEMPT_CHANNELS;

/** A short note with the outcome. */
export const OUTCOME_NOTE_MAX = 500;

/** POST /api/admin/contacts/{id}/outcomes. */
export const outcomeSchema = z.strictObject(
  {
    outcome: z.enum(OUTCOME_KEYS, { error: 'Elige un resultado de la lista.' }),
    /** The next contact (as proposed or changed); null clears it; absent takes the outcome's proposal. */
    nextContactAt: z.nullish(instantSchema),
    lostReason: z.optional(z.enum(LOST_REASONS, { error: 'Elige un motivo de la lista.' })),
    note: z.optional(
      z
        .string({ error: 'Escribe la nota como texto.' })
        .check(
          ...multiLineChecks,
          z.trim(),
          z.maxLength(OUTCOME_NOTE_MAX, `Usa como máximo ${OUTCOME_NOTE_MAX} caracteres.`),
        ),
    ),
  },
  { error: 'Solo se pueden enviar el resultado, el próximo contacto, el motivo y una nota.' },
);
export type OutcomeInput = z.output<typeof outcomeSchema>;

/** POST /api/admin/contacts/{id}/attempts: Llamar or WhatsApp pressed. */
export const attemptSchema = z.strictObject(
  {
    channel: z.enum(Object.keys(ATTEMPT_CHANNELS) as [AttemptChannel, ...AttemptChannel[]], {
      error: 'Elige llamada o WhatsApp.',
    }),
  },
  { error: 'Solo se puede enviar el medio del intento.' },
);

/**
 * What POST …/outcomes answers: the contact's follow-up as the outcome left
 * it (the history's new lines are read with the contact, GET …/contacts/{id}).
 */
export interface OutcomeSaved {
  id: string;
  state: ContactState;
  lostReason: LostReason | null;
  nextContactAt: string | null;
  attempts: number;
  version: number;
  lastActivityAt: string;
  /** Closed as lost with appointments still ahead (confirmed, or held for their payment): how many, to cancel or keep. */
  appointmentsAhead: number;
  /** Of those, how many another member gives (an adviser cannot cancel them: only that member or an administrator). */
  appointmentsAheadOfOthers: number;
}

/**
 * What the toast of an outcome that closed a contact with appointments still
 * ahead says, or null: they stand, with the buyer's reminders, until someone
 * cancels them, and an adviser cancels only their own (an administrator any).
 */
export function appointmentsAheadText(saved: OutcomeSaved, admin: boolean): string | null {
  const { appointmentsAhead: all, appointmentsAheadOfOthers: others } = saved;
  if (all === 0) return null;
  if (admin || others === 0) {
    return all === 1
      ? 'Su cita sigue agendada: cancélala en «Citas» si ya no va.'
      : `Sus ${all} citas siguen agendadas: cancélalas en «Citas» si ya no va.`;
  }
  if (others === all) {
    return all === 1
      ? 'Su cita con otra persona del equipo sigue agendada: avísale si ya no va.'
      : `Sus ${all} citas con otras personas del equipo siguen agendadas: avísales si ya no va.`;
  }
  return `Sus ${all} citas siguen agendadas: cancela las tuyas en «Citas» y avisa a quien atiende las demás si ya no va.`;
}

/** "1 intento", "3 intentos". */
export const attemptsText = (count: number): string => `${count} ${count === 1 ? 'intento' : 'intentos'}`;
