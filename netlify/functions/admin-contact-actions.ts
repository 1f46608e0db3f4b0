import type { Config } from '@netlify/functions';
import { z } from 'zod';
import {
  ALREADY_TAKEN,
  contactEditSchema,
  EDIT_NOT_YOURS,
  MERGE_NOT_YOURS,
  mergeSchema,
  PHONE_TAKEN,
} from '../../src/lib/admin/contact-work.ts';
import { STALE_VERSION } from '../../src/lib/admin/contacts.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { ADMIN_ONLY } from '../../src/server/auth/guard.ts';
import { claimContact } from '../../src/server/contacts/claim.ts';
import { getContact } from '../../src/server/contacts/detail.ts';
import { editContact, type MergeResult, mergeContacts } from '../../src/server/contacts/edit.ts';
import { recordOpposition } from '../../src/server/contacts/opposition.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/** The opposition carries nothing: what it records is who, when and about whom. */
const oppositionSchema = z.strictObject({});

/**
 * The answer of an edit or a merge: the contact, or why not (the 409 of a phone
 * carries the other contact; `notYours` is the 403 of an adviser on another's contact).
 */
function answer(result: MergeResult, notYours: string): Response {
  if (result === 'not_found') return jsonError(404, NOT_FOUND);
  if (result === 'from_not_found') return jsonError(404, 'No encontramos el otro prospecto. Quizá ya se unió.');
  if (result === 'same') return jsonError(400, 'Elige otro prospecto para unir.');
  if (result === 'not_yours') return jsonError(403, notYours);
  if (result === 'stale') return jsonError(409, STALE_VERSION);
  if ('collision' in result) {
    return json(409, {
      error: `${PHONE_TAKEN} ${result.collision.name} lo tiene. Puedes unir los dos prospectos.`,
      code: 'phone_taken',
      other: result.collision,
    });
  }
  return json(200, result.contact);
}

/**
 * What a member does to one contact beyond its follow-up (issue #26, decision 0037):
 * POST /api/admin/contacts/{id}/claim: "Tomar", the contact becomes the member's: 200 (the contact),
 *      409 «Otro asesor ya tomó este prospecto.» when someone has it (two at once: one wins).
 * PATCH /api/admin/contacts/{id}/details {name, phone, email?, version}: corrected with history;
 *      409 {code: 'phone_taken', other} when the phone is another contact's, 409 on a stale version,
 *      403 for an adviser when another member follows the contact (as a merge).
 * POST /api/admin/contacts/{id}/merge {from, name, phone, email?, version}: `from` joins this contact
 *      (every request, note, call and line of history), which then takes the edit; one transaction.
 * POST /api/admin/contacts/{id}/opposition {} (administrators): the person's opposition to promotions and
 *      to the ad platforms, asked outside WhatsApp: 200 (the contact); nothing of theirs goes to Meta or Google.
 */
export default endpoints('admin-contact-actions', [
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/claim',
    access: 'member',
    async work({ db, actor, params }) {
      const { id } = params;
      if (!isUuid(id)) return jsonError(404, NOT_FOUND);
      const result = await claimContact(db, id, actor);
      if (result === 'not_found') return jsonError(404, NOT_FOUND);
      if (result !== 'claimed') return json(409, { error: ALREADY_TAKEN, code: 'taken', takenBy: result.takenBy });
      const contact = await getContact(db, id);
      return contact ? json(200, contact) : jsonError(404, NOT_FOUND);
    },
  },
  {
    method: 'PATCH',
    path: '/api/admin/contacts/:id/details',
    access: 'member',
    async work({ db, actor, user, params, body }) {
      const { id } = params;
      if (!isUuid(id)) return jsonError(404, NOT_FOUND);
      const edit = await body(contactEditSchema, 'Revisa los datos del prospecto.');
      return answer(await editContact(db, id, edit, { ...actor, admin: user.admin }), EDIT_NOT_YOURS);
    },
  },
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/merge',
    access: 'member',
    async work({ db, actor, user, params, body }) {
      const { id } = params;
      if (!isUuid(id)) return jsonError(404, NOT_FOUND);
      const merge = await body(mergeSchema, 'Revisa la unión.');
      return answer(await mergeContacts(db, id, merge, { ...actor, admin: user.admin }), MERGE_NOT_YOURS);
    },
  },
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/opposition',
    access: 'member',
    async work({ db, actor, user, params, body }) {
      const { id } = params;
      if (!isUuid(id)) return jsonError(404, NOT_FOUND);
      // One of the person's rights (ARCO), as erasing them: administrators record it.
      if (!user.admin) return jsonError(403, ADMIN_ONLY);
      await body(oppositionSchema, 'Revisa la solicitud.');
      if ((await recordOpposition(db, id, actor)) === 'not_found') return jsonError(404, NOT_FOUND);
      const contact = await getContact(db, id);
      return contact ? json(200, contact) : jsonError(404, NOT_FOUND);
    },
  },
]);

export const config: Config = {
  path: [
    '/api/admin/contacts/:id/claim',
    '/api/admin/contacts/:id/details',
    '/api/admin/contacts/:id/merge',
    '/api/admin/contacts/:id/opposition',
  ],
};
