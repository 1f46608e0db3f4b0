import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { ACTIVITY_KINDS, ACTIVITY_LABELS, type ActivityPage } from '../../../lib/admin/team.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';
import { ListFooter } from '../shared/ListFooter.tsx';
import { card, LoadFailed, Loading } from '../shared/ui.tsx';
import { useTeam } from '../team/queries.ts';

/** /admin#actividad (administrators): who did what, when, with filters by member and by kind. */
export function ActivityView() {
  const [filter, setFilter] = useState({ actor: '', kind: '' });
  const activity = useInfiniteQuery({
    queryKey: keys.activity(filter),
    queryFn: ({ pageParam }) =>
      api<ActivityPage>(
        `/api/admin/activity?${new URLSearchParams({ ...filter, ...(pageParam ? { cursor: pageParam } : {}) })}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const team = useTeam();
  const members = (team.data?.members ?? []).map((member) => ({
    value: member.id,
    label: member.name ?? member.email,
  }));
  const items = activity.data?.pages.flatMap((page) => page.items);

  return (
    <div className="grid min-w-0 gap-4">
      <div className={`grid gap-3 sm:grid-cols-2 ${card}`}>
        <label className="field">
          <span className="field-label">Miembro</span>
          <select
            className="field-input"
            value={filter.actor}
            onChange={(event) => setFilter((current) => ({ ...current, actor: event.target.value }))}
          >
            <option value="">Todos</option>
            {members.map((member) => (
              <option key={member.value} value={member.value}>
                {member.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Tipo</span>
          <select
            className="field-input"
            value={filter.kind}
            onChange={(event) => setFilter((current) => ({ ...current, kind: event.target.value }))}
          >
            <option value="">Todos</option>
            {ACTIVITY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ACTIVITY_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {activity.isError ? (
        <LoadFailed error={activity.error} retry={() => void activity.refetch()} />
      ) : !items ? (
        <Loading text="Cargando actividad..." />
      ) : items.length === 0 ? (
        <p className={`${card} text-center text-brand-800`}>No hay actividad con estos filtros.</p>
      ) : (
        <ol className="grid gap-2" aria-label="Actividad del equipo">
          {items.map((entry) => (
            <li key={entry.id} className={`grid gap-1 ${card}`}>
              <p className="text-xs text-brand-700">
                <time dateTime={entry.at}>{formatShortDate(entry.at)}</time> · {ACTIVITY_LABELS[entry.kind]}
                {entry.ip ? ` · IP ${entry.ip}` : ''}
              </p>
              <p className="wrap-anywhere">
                <span className="font-semibold">{entry.actorName ?? 'Alguien sin sesión'}</span>: {entry.summary}
              </p>
            </li>
          ))}
        </ol>
      )}
      <ListFooter
        more={activity.hasNextPage}
        loading={activity.isFetchingNextPage}
        onMore={() => void activity.fetchNextPage()}
      />
    </div>
  );
}
