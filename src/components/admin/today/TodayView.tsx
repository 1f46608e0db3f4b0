import { formatShortDate } from '../../../lib/admin/columns.ts';
import { type AgendaFilter, TODAY_SECTIONS, type TodayScope } from '../../../lib/admin/today.ts';
import { todayInMerida } from '../session.ts';
import { PanelLink } from '../shared/PanelLink.tsx';
import { LoadFailed, Loading } from '../shared/ui.tsx';
import { setUrlParams, useKeptScroll, useUrlParams } from '../shared/url.ts';
import { useToday } from './queries.ts';
import { TodayAppointments } from './TodayAppointments.tsx';
import { TodayList } from './TodayList.tsx';

const SCOPE_CHIP =
  'inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-pressed:bg-brand-900 aria-pressed:text-white';
const FIGURE =
  'grid min-h-11 content-center rounded-2xl bg-white px-4 py-3 ring-1 ring-brand-900/10 hover:ring-brand-700 focus-visible:ring-2';

/**
 * "Hoy" (issue #26), the view the panel opens on: overdue and today's next
 * contacts first, then the new leads nobody has scheduled (oldest first),
 * then the rest of the open contacts; the appointments (issue #40) above
 * them: past ones still unmarked, then the day's. An adviser sees their own;
 * administrators the team's, or their own (`?alcance=mios`).
 */
export function TodayView({ admin }: { admin: boolean }) {
  const params = useUrlParams();
  const scope: TodayScope = admin && params.get('alcance') !== 'mios' ? 'all' : 'mine';
  const query = useToday(scope);
  useKeptScroll(query.isSuccess);
  const agenda = query.data;
  const today = todayInMerida();
  const listOf = (filter: AgendaFilter) =>
    `/admin?vista=prospectos&agenda=${filter}${scope === 'mine' ? '&assigned=me' : ''}`;
  const figures: [string, AgendaFilter, number | undefined][] = [
    ['Vencidos', 'vencidos', agenda?.sections.overdue.total],
    ['Para hoy', 'hoy', agenda?.sections.today.total],
    ['Nuevos sin atender', 'nuevos', agenda?.sections.new.total],
  ];
  const nothing = agenda && Object.values(agenda.sections).every((section) => section.total === 0);

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold">Hoy</h2>
          <p className="text-sm text-brand-800">
            {formatShortDate(agenda?.day ?? today)} · {scope === 'mine' ? 'Mis prospectos' : 'Todo el equipo'}
          </p>
        </div>
        {admin && (
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">De quién</legend>
            <button
              type="button"
              className={SCOPE_CHIP}
              aria-pressed={scope === 'all'}
              onClick={() => setUrlParams({ alcance: null })}
            >
              Todo el equipo
            </button>
            <button
              type="button"
              className={SCOPE_CHIP}
              aria-pressed={scope === 'mine'}
              onClick={() => setUrlParams({ alcance: 'mios' })}
            >
              Mis prospectos
            </button>
          </fieldset>
        )}
      </div>

      {query.isError ? (
        <LoadFailed error={query.error} retry={() => void query.refetch()} what="No se pudo cargar el día." />
      ) : !agenda ? (
        <Loading text="Cargando…" />
      ) : (
        <>
          <nav aria-label="Resumen del día" className="grid grid-cols-3 gap-2">
            {figures.map(([label, filter, count]) => (
              <PanelLink key={filter} href={listOf(filter)} className={FIGURE}>
                <span className="text-2xl font-bold tabular-nums">{(count ?? 0).toLocaleString('es-MX')}</span>
                <span className="text-xs font-semibold text-brand-800">{label}</span>
              </PanelLink>
            ))}
          </nav>
          <TodayAppointments appointments={agenda.appointments} scope={scope} />
          {nothing ? (
            <p className="rounded-2xl bg-white p-8 text-center text-brand-800 ring-1 ring-brand-900/10">
              {scope === 'mine'
                ? 'No tienes prospectos abiertos. Cuando te asignen uno, aparecerá aquí.'
                : 'Aún no hay prospectos abiertos.'}
            </p>
          ) : (
            TODAY_SECTIONS.map((section) => (
              <TodayList
                key={`${scope}-${section}`}
                scope={scope}
                section={section}
                page={agenda.sections[section]}
                today={today}
              />
            ))
          )}
        </>
      )}
    </div>
  );
}
