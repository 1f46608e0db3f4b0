/**
 * Issue #26, items 4 and 5, shared by the panel and the functions: taking an
 * unassigned lead ("Tomar"), changes to many contacts at once, a lead typed in
 * by the team, a contact's name, phone and e-mail corrected, and two contacts
 * merged. Browser-safe: no server import.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { LEAD_ORIGIN_VALUES } from '../../data/lead-origins.ts';
import { LIMITS, optionalEmailField, requiredPhone, requiredText } from '../forms/fields.ts';
import type { ContactState } from './contacts.ts';
import { NOTE_MAX } from './contacts.ts';
import { multiLineChecks } from './text.ts';

/** The 409 of the second of two advisers who pressed "Tomar" at once. */
export const ALREADY_TAKEN = 'Otro asesor ya tomó este prospecto.';
/** The 409 of a phone that is another contact's. */
export const PHONE_TAKEN = 'Ese teléfono ya es de otro prospecto.';
/** An adviser merging a contact that someone else follows. */
export const MERGE_NOT_YOURS =
  'Solo puedes unir prospectos que sean tuyos o sin asignar. Pide a un administrador que los una.';
/** An adviser correcting the name, phone or e-mail of a contact that someone else follows. */
export const EDIT_NOT_YOURS =
  'Solo puedes corregir los datos de prospectos tuyos o sin asignar. Pide a un administrador o a su asesor que los corrija.';

/** A phone typed by the team: the public forms' rule, the team's words. */
const phoneField = requiredPhone('Escribe el teléfono.');
const nameField = requiredText('Escribe el nombre.', LIMITS.name);
const version = z.int({ error: 'Falta la versión del prospecto.' }).check(z.gte(1, 'Falta la versión del prospecto.'));

/** POST /api/admin/contacts: a lead typed in ("Nuevo prospecto"). */
export const captureSchema = z.strictObject(
  {
    name: nameField,
    phone: phoneField,
    email: optionalEmailField,
    origin: z.enum(LEAD_ORIGIN_VALUES, {
      error: (issue) =>
        issue.input == null || issue.input === '' ? 'Elige de dónde llegó.' : 'Elige una opción de la lista.',
    }),
    note: z.pipe(
      z.optional(
        z
          .string({ error: 'La nota debe ser texto.' })
          .check(
            ...multiLineChecks,
            z.trim(),
            z.maxLength(NOTE_MAX, `Usa como máximo ${NOTE_MAX.toLocaleString('es-MX')} caracteres.`),
          ),
      ),
      z.transform((value: string | undefined) => value || null),
    ),
  },
  { error: 'Solo se envían nombre, teléfono, correo, origen y nota.' },
);
export type Capture = z.output<typeof captureSchema>;

/** What POST /api/admin/contacts answers: the contact, and whether it is new (201) or the phone's contact (200). */
export interface CaptureAnswer {
  id: string;
  created: boolean;
}

/** PATCH /api/admin/contacts/{id}/details: the contact's name, phone and e-mail, on the version seen. */
export const contactEditSchema = z.strictObject(
  { name: nameField, phone: phoneField, email: optionalEmailField, version },
  { error: 'Solo se corrigen el nombre, el teléfono y el correo.' },
);
export type ContactEdit = z.output<typeof contactEditSchema>;

/** POST /api/admin/contacts/{id}/merge: `from` joins this contact, which then takes the edit. */
export const mergeSchema = z.strictObject(
  {
    from: z.uuid('Elige el prospecto que se une.'),
    name: nameField,
    phone: phoneField,
    email: optionalEmailField,
    version,
  },
  { error: 'Revisa la unión.' },
);
export type Merge = z.output<typeof mergeSchema>;

/** The other contact of a 409 on a phone, enough to decide to merge. */
export interface OtherContact {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  state: ContactState;
  requests: number;
  assignedTo: string | null;
}

/**
 * Who changes who a contact is (its name, phone and e-mail, or a merge of two):
 * an administrator any contact; an adviser only contacts that are theirs or
 * nobody's (another adviser's customer keeps the phone that adviser knows).
 */
export function mayChangeIdentity(member: { id: string; admin: boolean }, assignees: (string | null)[]): boolean {
  return member.admin || assignees.every((assignee) => assignee === null || assignee === member.id);
}
