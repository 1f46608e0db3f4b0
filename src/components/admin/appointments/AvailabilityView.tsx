import { type FormEvent, useId, useState } from 'react';
import {
  type AvailabilityView as Availability,
  availabilitySchema,
  MEMBER_TIME_ZONES,
  type MemberTimeZone,
  TIME_ZONE_LABELS,
  timeOffSchema,
  WEEKDAY_NAMES,
} from '../../../lib/appointments/panel.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { explain, fieldErrors } from '../api.ts';
import { FormActions } from '../shared/FormActions.tsx';
import { PanelLink } from '../shared/PanelLink.tsx';
import { card, LoadFailed, Loading, SelectBox } from '../shared/ui.tsx';
import { setUrlParams, useUrlParams } from '../shared/url.ts';
import { useAddTimeOff, useAvailability, useRemoveTimeOff, useSaveAvailability } from './queries.ts';

interface Range {
  key: number;
  starts: string;
  ends: string;
}
type Week = Range[][];

let nextKey = 1;
const weekOf = (view: Availability): Week =>
  WEEKDAY_NAMES.map((_, index) =>
    view.weekly
      .filter((range) => range.weekday === index + 1)
      .map((range) => ({ key: nextKey++, starts: range.starts, ends: range.ends })),
  );

/**
 * "Disponibilidad" (issue #40, decision 0061): a member's weekly hours (as
 * many ranges a day as they need, on their zone's clock), the kinds of
 * appointment they give and their time off. An administrator picks whose
 * (?vista=disponibilidad&de=…); an adviser edits their own.
 */
export function AvailabilityView({ admin }: { admin: boolean }) {
  const asked = useUrlParams().get('de') ?? '';
  const member = admin ? asked : '';
  const query = useAvailability(member);
  const view = query.data;

  return (
    <div className="grid min-w-0 gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold">Disponibilidad para citas</h2>
          <p className="text-sm text-brand-800">
            Los horarios libres que ven los clientes salen de aquí y de las citas que ya tienes.
          </p>
        </div>
        <PanelLink
          href="/admin?vista=agenda"
          className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
        >
          Ver agenda
        </PanelLink>
      </div>
      {admin && view && view.members.length > 1 && (
        <SelectBox
          label="De quién"
          value={view.member.id}
          onChange={(value) => setUrlParams({ de: value })}
          className="field max-w-sm"
        >
          {view.members.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
        </SelectBox>
      )}
      {query.isError ? (
        <LoadFailed
          error={query.error}
          retry={() => void query.refetch()}
          what="No se pudo cargar la disponibilidad."
        />
      ) : !view ? (
        <Loading text="Cargando disponibilidad…" />
      ) : (
        <>
          <WeeklyForm
            key={`${view.member.id}-${view.timeZone}-${view.weekly.length}-${view.kinds.join()}`}
            view={view}
            member={member}
          />
          <TimeOff view={view} member={member} />
        </>
      )}
    </div>
  );
}

function WeeklyForm({ view, member }: { view: Availability; member: string }) {
  const [week, setWeek] = useState<Week>(() => weekOf(view));
  const [timeZone, setTimeZone] = useState<MemberTimeZone>(view.timeZone);
  const [kinds, setKinds] = useState<string[]>(view.kinds);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveAvailability(member);
  const id = `id${useId()}`;

  const change = (day: number, update: (ranges: Range[]) => Range[]) =>
    setWeek((current) => current.map((ranges, index) => (index === day ? update(ranges) : ranges)));

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = {
      timeZone,
      weekly: week.flatMap((ranges, index) =>
        ranges.map((range) => ({ weekday: index + 1, starts: range.starts, ends: range.ends })),
      ),
      kinds,
    };
    const checked = availabilitySchema.safeParse(input);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'Revisa tu horario.');
    setError(null);
    save.mutate(
      { id: view.member.id, input: checked.data },
      {
        onSuccess: () => showToast({ title: 'Disponibilidad guardada' }),
        onError: (failure) => {
          const fields = fieldErrors(failure);
          setError((fields && Object.values(fields)[0]) ?? explain(failure, 'No se pudo guardar. Intenta de nuevo.'));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className={`grid gap-5 ${card}`} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`} className="text-lg font-bold">
        Horario semanal de {view.member.name}
      </h3>
      <SelectBox<MemberTimeZone>
        label="Zona horaria"
        value={timeZone}
        onChange={setTimeZone}
        className="field max-w-xs"
      >
        {MEMBER_TIME_ZONES.map((zone) => (
          <option key={zone} value={zone}>
            {TIME_ZONE_LABELS[zone]}
          </option>
        ))}
      </SelectBox>
      <div className="grid gap-3">
        {WEEKDAY_NAMES.map((name, day) => (
          <fieldset key={name} className="grid gap-2 border-t border-brand-900/10 pt-3 sm:grid-cols-[8rem_1fr]">
            <legend className="float-left font-semibold sm:pt-2">{name}</legend>
            <div className="grid gap-2">
              {(week[day] ?? []).length === 0 && <p className="text-sm text-brand-800 sm:pt-2">Sin horario</p>}
              {(week[day] ?? []).map((range, index) => (
                <div
                  key={range.key}
                  className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-end gap-2 sm:max-w-md"
                >
                  <label className="field min-w-0">
                    <span className="field-label">Desde</span>
                    <input
                      type="time"
                      className="field-input w-full min-w-0 px-2"
                      value={range.starts}
                      step={900}
                      required
                      aria-label={`${name}, horario ${index + 1}: desde`}
                      onChange={(event) =>
                        change(day, (ranges) =>
                          ranges.map((entry) =>
                            entry.key === range.key ? { ...entry, starts: event.target.value } : entry,
                          ),
                        )
                      }
                    />
                  </label>
                  <label className="field min-w-0">
                    <span className="field-label">Hasta</span>
                    <input
                      type="time"
                      className="field-input w-full min-w-0 px-2"
                      value={range.ends}
                      step={900}
                      required
                      aria-label={`${name}, horario ${index + 1}: hasta`}
                      onChange={(event) =>
                        change(day, (ranges) =>
                          ranges.map((entry) =>
                            entry.key === range.key ? { ...entry, ends: event.target.value } : entry,
                          ),
                        )
                      }
                    />
                  </label>
                  <button
                    type="button"
                    className="btn btn-outline min-h-11 min-w-11 px-2 py-2 text-base"
                    aria-label={`Quitar el horario ${index + 1} del ${name.toLowerCase()}`}
                    title="Quitar"
                    onClick={() => change(day, (ranges) => ranges.filter((entry) => entry.key !== range.key))}
                  >
                    <span aria-hidden="true">✕</span>
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="btn btn-outline min-h-11 justify-self-start px-3 py-2 text-sm"
                aria-label={`Agregar horario el ${name.toLowerCase()}`}
                onClick={() =>
                  change(day, (ranges) => {
                    const last = ranges.at(-1);
                    return [
                      ...ranges,
                      last
                        ? { key: nextKey++, starts: last.ends, ends: last.ends < '18:00' ? '18:00' : '20:00' }
                        : { key: nextKey++, starts: '09:00', ends: '18:00' },
                    ];
                  })
                }
              >
                Agregar horario
              </button>
            </div>
          </fieldset>
        ))}
      </div>
      <fieldset className="grid gap-2">
        <legend className="font-semibold">Tipos de cita que das</legend>
        {view.allKinds.map((kind) => (
          <label key={kind.id} className="flex min-h-11 items-center gap-3">
            <input
              type="checkbox"
              className="size-5"
              checked={kinds.includes(kind.id)}
              onChange={(event) =>
                setKinds((current) =>
                  event.target.checked ? [...current, kind.id] : current.filter((entry) => entry !== kind.id),
                )
              }
            />
            {kind.name}
          </label>
        ))}
      </fieldset>
      <FormActions
        align="start"
        error={error}
        submit={save.isPending ? 'Guardando…' : 'Guardar disponibilidad'}
        disabled={save.isPending}
      />
    </form>
  );
}

function TimeOff({ view, member }: { view: Availability; member: string }) {
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddTimeOff(member);
  const remove = useRemoveTimeOff(member);
  const id = `id${useId()}`;
  const zone = TIME_ZONE_LABELS[view.timeZone];

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = timeOffSchema.safeParse({ start, end, ...(reason.trim() ? { reason } : {}) });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'Revisa las fechas.');
    setError(null);
    add.mutate(
      { id: view.member.id, input: checked.data },
      {
        onSuccess: (added) => {
          setStart('');
          setEnd('');
          setReason('');
          const during = added.appointmentsDuring;
          showToast({
            title: 'Ausencia agregada',
            // The appointments already in it stand: the buyers expect them.
            ...(during > 0 && {
              description:
                during === 1
                  ? 'Hay una cita en ese horario: sigue en pie. Cancélala o pide a alguien que la atienda.'
                  : `Hay ${during} citas en ese horario: siguen en pie. Cancélalas o pide a alguien que las atienda.`,
            }),
          });
        },
        onError: (failure) => {
          const fields = fieldErrors(failure);
          setError((fields && Object.values(fields)[0]) ?? explain(failure, 'No se pudo guardar. Intenta de nuevo.'));
        },
      },
    );
  }

  return (
    <section aria-labelledby={`${id}-title`} className={`grid gap-4 ${card}`}>
      <h3 id={`${id}-title`} className="text-lg font-bold">
        Ausencias
      </h3>
      {view.timeOff.length === 0 ? (
        <p className="text-sm text-brand-800">No tienes ausencias próximas.</p>
      ) : (
        <ul className="grid gap-2">
          {view.timeOff.map((off) => (
            <li key={off.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-sand-100 p-3">
              <span className="wrap-anywhere">
                {off.startWall.replace('T', ' ')} a {off.endWall.replace('T', ' ')}
                {off.reason ? ` · ${off.reason}` : ''}
              </span>
              <button
                type="button"
                className="btn btn-outline min-h-11 px-3 py-2 text-sm"
                disabled={remove.isPending}
                aria-label={`Quitar la ausencia del ${off.startWall.replace('T', ' ')}`}
                onClick={() => remove.mutate({ id: view.member.id, timeOff: off.id })}
              >
                Quitar
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="grid gap-3" noValidate>
        <p className="text-sm text-brand-800">Hora de {zone}.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="field">
            <span className="field-label">Desde</span>
            <input
              type="datetime-local"
              className="field-input"
              value={start}
              required
              onChange={(event) => setStart(event.target.value)}
            />
          </label>
          <label className="field">
            <span className="field-label">Hasta</span>
            <input
              type="datetime-local"
              className="field-input"
              value={end}
              required
              onChange={(event) => setEnd(event.target.value)}
            />
          </label>
        </div>
        <label className="field">
          <span className="field-label">Motivo (opcional)</span>
          <input
            type="text"
            className="field-input"
            value={reason}
            maxLength={200}
            onChange={(event) => setReason(event.target.value)}
          />
        </label>
        <FormActions
          align="start"
          error={error}
          submit={add.isPending ? 'Agregando…' : 'Agregar ausencia'}
          disabled={add.isPending}
        />
      </form>
    </section>
  );
}
