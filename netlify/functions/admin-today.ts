import type { Config } from '@netlify/functions';
import { type TodayAgenda, todayQuerySchema } from '../../src/lib/admin/today.ts';
import { dayAppointments } from '../../src/server/appointments/day.ts';
import { TODAY_PAGE, todayAgenda, todaySection, todayTotals } from '../../src/server/contacts/today.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

/**
 * GET /api/admin/today?scope=mine|all: "Hoy", each section's first page and
 * total (an adviser's own contacts; everyone's is the administrators': 403).
 * GET /api/admin/today?scope=&section=&cursor=: the next page of one section.
 */
export default endpoints('admin-today', [
  {
    method: 'GET',
    path: '/api/admin/today',
    access: 'member',
    async work({ db, url, user }) {
      const parsed = todayQuerySchema.safeParse(
        Object.fromEntries([...url.searchParams].filter(([, value]) => value !== '')),
      );
      if (!parsed.success) return jsonError(400, 'Revisa los filtros.');
      const { section, cursor: given } = parsed.data;
      const scope = parsed.data.scope ?? (user.admin ? 'all' : 'mine');
      if (scope === 'all' && !user.admin) {
        return jsonError(403, 'Solo los administradores ven los prospectos de todo el equipo.');
      }
      const who = { scope, memberId: user.id };
      const now = new Date();
      if (!section) {
        const [agenda, appointments] = await Promise.all([todayAgenda(db, who, now), dayAppointments(db, who, now)]);
        return json(200, { ...agenda, appointments } satisfies TodayAgenda);
      }
      const cursor = decodeCursor(given ?? null);
      if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
      const [page, totals] = await Promise.all([
        todaySection(db, who, section, cursor, TODAY_PAGE, now),
        todayTotals(db, who, now),
      ]);
      return json(200, { ...page, total: totals[section] });
    },
  },
]);

export const config: Config = { path: '/api/admin/today' };
