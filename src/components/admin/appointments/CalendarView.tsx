import type { CalendarItem } from '../../../lib/appointments/panel.ts';
import { useAssignable } from '../contact/page-queries.ts';
import { PanelLink } from '../shared/PanelLink.tsx';
import { LoadFailed, Loading, SelectBox } from '../shared/ui.tsx';
import { setUrlParams, useUrlParams } from '../shared/url.ts';
import { AppointmentItem } from './AppointmentItem.tsx';
import { useCalendar } from './queries.ts';
import { addDays, isDate, longDay, meridaDate, mondayOf, shortDay, upperFirst } from './time.ts';

const CHIP =
  'inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-pressed:bg-brand-900 aria-pressed:text-white';
const NAV = 'btn btn-outline min-h-11 min-w-11 px-3 py-2';

type Mode = 'dia' | 'semana';

/**
 * "Agenda" (issue #40): the member's appointments by day or by week on
 * Mérida's calendar, in the address (?vista=agenda&modo=semana&fecha=…&de=…)
 * so a reload or a shared link keeps them. A week is a list of its days on a
 * phone and a grid of seven columns from 1024 px. An administrator sees the
 * whole team's, or one member's (the server refuses an adviser anyone
 * else's: decision 0061).
 */
export function CalendarView({ admin, self }: { admin: boolean; self: string }) {
  const params = useUrlParams();
  const today = meridaDate(Date.now());
  const mode: Mode = params.get('modo') === 'dia' ? 'dia' : 'semana';
  const date = isDate(params.get('fecha')) ? (params.get('fecha') as string) : today;
  const member = admin ? (params.get('de') ?? '') : '';
  const members = useAssignable(admin);
  const from = mode === 'dia' ? date : mondayOf(date);
  const to = mode === 'dia' ? date : addDays(from, 6);
  const query = useCalendar(from, to, member);
  const days = mode === 'dia' ? [date] : Array.from({ length: 7 }, (_, index) => addDays(from, index));
  const step = mode === 'dia' ? 1 : 7;
  const team = admin && member === '';
  const byDay = new Map<string, CalendarItem[]>();
  for (const item of query.data?.items ?? []) {
    const day = meridaDate(item.start);
    byDay.set(day, [...(byDay.get(day) ?? []), item]);
  }
  const title = mode === 'dia' ? longDay(date) : `semana del ${longDay(from)}`;

  return (
    <div className="grid min-w-0 gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold">Agenda</h2>
          <p className="text-sm text-brand-800">
            {upperFirst(title)} · hora de Mérida ·{' '}
            {team ? 'Todo el equipo' : member && member !== self ? 'Un miembro' : 'Mis citas'}
          </p>
        </div>
        <PanelLink
          href="/admin?vista=disponibilidad"
          className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
        >
          Mi disponibilidad
        </PanelLink>
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <fieldset className="flex gap-2">
          <legend className="sr-only">Ver por</legend>
          <button
            type="button"
            className={CHIP}
            aria-pressed={mode === 'dia'}
            onClick={() => setUrlParams({ modo: 'dia' })}
          >
            Día
          </button>
          <button
            type="button"
            className={CHIP}
            aria-pressed={mode === 'semana'}
            onClick={() => setUrlParams({ modo: null })}
          >
            Semana
          </button>
        </fieldset>
        <div className="flex gap-2">
          <button
            type="button"
            className={NAV}
            aria-label={mode === 'dia' ? 'Día anterior' : 'Semana anterior'}
            onClick={() => setUrlParams({ fecha: addDays(date, -step) })}
          >
            ←
          </button>
          <button type="button" className={`${NAV} px-4`} onClick={() => setUrlParams({ fecha: null })}>
            Hoy
          </button>
          <button
            type="button"
            className={NAV}
            aria-label={mode === 'dia' ? 'Día siguiente' : 'Semana siguiente'}
            onClick={() => setUrlParams({ fecha: addDays(date, step) })}
          >
            →
          </button>
        </div>
        {admin && (
          <SelectBox
            label="De quién"
            value={member}
            onChange={(value) => setUrlParams({ de: value || null })}
            className="field min-w-48"
          >
            <option value="">Todo el equipo</option>
            <option value={self}>Mis citas</option>
            {members
              ?.filter((entry) => entry.id !== self)
              .map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
          </SelectBox>
        )}
      </div>

      {query.isError ? (
        <LoadFailed error={query.error} retry={() => void query.refetch()} what="No se pudo cargar la agenda." />
      ) : !query.data ? (
        <Loading text="Cargando agenda…" />
      ) : (
        <>
          {query.data.items.length === 0 && (
            <p role="status" className="rounded-2xl bg-white p-4 text-brand-800 ring-1 ring-brand-900/10">
              {mode === 'dia' ? 'No hay citas este día.' : 'No hay citas esta semana.'} Agenda una desde la página de un
              prospecto («Agendar cita»).
            </p>
          )}
          <ol
            className={mode === 'semana' ? 'grid gap-4 lg:grid-cols-7 lg:gap-2' : 'grid gap-4'}
            aria-busy={query.isFetching}
          >
            {days.map((day) => {
              const items = byDay.get(day) ?? [];
              // On a phone, a week lists only the days with appointments (the empty ones are a line each).
              return (
                <li
                  key={day}
                  className={`grid min-w-0 content-start gap-2 ${mode === 'semana' ? 'lg:rounded-xl lg:bg-white/50 lg:p-2 lg:ring-1 lg:ring-brand-900/10' : ''}`}
                >
                  <h3 className={`text-sm font-bold ${day === today ? 'text-terracotta-700' : ''}`}>
                    {mode === 'semana' ? shortDay(day) : upperFirst(longDay(day))}
                    {day === today && <span className="sr-only"> (hoy)</span>}
                  </h3>
                  {items.length === 0 ? (
                    <p className="text-xs text-brand-800">Sin citas</p>
                  ) : (
                    <ul className="grid gap-2">
                      {items.map((item) => (
                        <li key={item.id}>
                          <AppointmentItem item={item} showMember={team} />
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </div>
  );
}
