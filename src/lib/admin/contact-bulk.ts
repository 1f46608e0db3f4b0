/**
 * A change from the contacts list (issue #26, item 4): the schema the
 * function checks. Apart from contact-work.ts because the panel never parses
 * it (the action bar offers only valid choices): zod's array check would
 * otherwise join the zod chunk every form page shares.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { CONTACT_STATES, LOST_REASON_REQUIRED, LOST_REASONS } from './contacts.ts';

/** At most this many contacts in one change from the list. */
export const BULK_MAX = 200;

/** POST /api/admin/contacts-bulk (administrators): assign, change the state, or both, of several contacts. */
export const bulkChangeSchema = z
  .strictObject(
    {
      ids: z
        .array(z.uuid('Elige prospectos de la lista.'), { error: 'Elige al menos un prospecto.' })
        .check(
          z.minLength(1, 'Elige al menos un prospecto.'),
          z.maxLength(BULK_MAX, `Elige como máximo ${BULK_MAX} prospectos a la vez.`),
        ),
      state: z.optional(z.enum(CONTACT_STATES, { error: 'Elige un estado de la lista.' })),
      lostReason: z.nullish(z.enum(LOST_REASONS, { error: 'Elige un motivo de la lista.' })),
      /** A member's id, or null to leave them unassigned. */
      assignedTo: z.nullish(z.uuid('Elige a un miembro del equipo.')),
    },
    { error: 'Solo se pueden cambiar el estado y la asignación.' },
  )
  .check(
    z.refine((change) => change.state !== 'cerrado_perdido' || Boolean(change.lostReason), {
      message: LOST_REASON_REQUIRED,
      path: ['lostReason'],
    }),
    z.refine((change) => change.state !== undefined || change.assignedTo !== undefined, {
      message: 'Elige qué cambiar: el estado o a quién asignarlos.',
      path: ['state'],
    }),
  );
export type BulkChange = z.output<typeof bulkChangeSchema>;

/** What a change from the list answers: how many contacts changed (the others were gone). */
export interface BulkAnswer {
  changed: number;
  missing: number;
}
