import type { Config } from '@netlify/functions';
import { pipelineQuerySchema } from '../../src/lib/admin/pipeline.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { type PipelineScope, pipelineBoard, pipelineColumn } from '../../src/server/contacts/pipeline.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

/**
 * GET /api/admin/pipeline?assigned=me|none|{id}: the pipeline ("Embudo"), each
 * state's first cards, count and sum of estimated values; any member, who
 * sees what Prospectos shows them (everyone's, or filtered by assignment).
 * GET /api/admin/pipeline?assigned=&state=&cursor=: one column's next page.
 * Cards move through PATCH /api/admin/contacts/{id} (the state change of
 * every other view: its version check, history and activity entry).
 */
export default endpoints('admin-pipeline', [
  {
    method: 'GET',
    path: '/api/admin/pipeline',
    access: 'member',
    async work({ db, url, user }) {
      const parsed = pipelineQuerySchema.safeParse(
        Object.fromEntries([...url.searchParams].filter(([, value]) => value !== '')),
      );
      if (!parsed.success) {
        return jsonError(400, 'Revisa los filtros.', { fields: fieldMessages(parsed.error) });
      }
      const { assigned, state, cursor: given, source, campaign } = parsed.data;
      const scope: PipelineScope = {
        ...(assigned === undefined
          ? { assigned: 'all' as const }
          : assigned === 'none'
            ? { assigned: 'none' as const }
            : { assigned: 'member' as const, id: assigned === 'me' ? user.id : assigned }),
        ...(source ? { source } : {}),
        ...(campaign ? { campaign } : {}),
      };
      if (!state) {
        if (given) return jsonError(400, 'Parámetros de paginación no válidos.');
        return json(200, await pipelineBoard(db, scope));
      }
      const cursor = decodeCursor(given ?? null);
      if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
      return json(200, await pipelineColumn(db, scope, state, cursor));
    },
  },
]);

export const config: Config = { path: '/api/admin/pipeline' };
