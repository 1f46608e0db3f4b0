import type { Config } from '@netlify/functions';
import { outcomeSchema } from '../../src/lib/admin/outcomes.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { recordOutcome } from '../../src/server/contacts/outcome.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/**
 * POST /api/admin/contacts/{id}/outcomes {outcome, nextContactAt?, lostReason?, note?} (members):
 * the follow-up the outcome left (OutcomeSaved: state, reason, next contact, attempts, version); the history's
 * new lines are read with the contact (GET /api/admin/contacts/{id}).
 */
export default endpoints('admin-contact-outcomes', [
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/outcomes',
    access: 'member',
    async work({ db, actor, params, body }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const input = await body(outcomeSchema, 'Revisa el resultado.');
      const result = await recordOutcome(db, params.id, input, actor);
      return result === 'not_found' ? jsonError(404, NOT_FOUND) : json(200, result);
    },
  },
]);

export const config: Config = { path: '/api/admin/contacts/:id/outcomes' };
