import { useState } from 'react';
import type { FreeSlot } from '../../lib/appointments/booking.ts';
import { PICKER_WORDS } from '../../lib/appointments/words.ts';
import { clockOf, dateParts, dayOf, zoneName } from './time.ts';

interface Props {
  /** The free slots, in time order (the endpoint's answer). */
  slots: readonly FreeSlot[];
  /** The place's IANA zone: days and times are shown on its clock. */
  timeZone: string;
  /** The chosen slot's start, if any. */
  selected: string | null;
  onSelect(start: string): void;
  /** Makes names and ids unique when a page shows two pickers. */
  idPrefix?: string;
}

/** How many days the row shows before "Ver más días". */
const FIRST_DAYS = 7;

interface Day {
  key: string;
  label: string;
  weekday: string;
  number: string;
  month: string;
  slots: FreeSlot[];
}

/** The slots grouped by date of the zone's calendar, in order. */
function daysOf(slots: readonly FreeSlot[], timeZone: string): Day[] {
  const days: Day[] = [];
  for (const slot of slots) {
    const parts = dateParts(slot.start, timeZone);
    let day = days.at(-1);
    if (day?.key !== parts.key) {
      day = { ...parts, label: dayOf(slot.start, timeZone), slots: [] };
      days.push(day);
    }
    day.slots.push(slot);
  }
  return days;
}

const chip =
  'flex min-h-11 cursor-pointer items-center justify-center rounded-xl border-[1.5px] border-[#8aa595] bg-white px-2 text-center font-semibold has-[:checked]:border-brand-700 has-[:checked]:bg-brand-700 has-[:checked]:text-white has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600';

/**
 * The slot picker's presentational core (issue #40, decision 0059), shared by
 * the public booking, the buyer's page and the panel: the days that have
 * free slots, then that day's times, on the place's clock (with the zone's
 * name when it is not Mérida's). Two groups of native radio buttons, so a
 * keyboard moves with the arrows and a screen reader hears "sábado 6 de
 * marzo, 2 de 10". The day shown is its own state; the slot is the caller's.
 */
export function SlotPicker({ slots, timeZone, selected, onSelect, idPrefix = 'slot-' }: Props) {
  const days = daysOf(slots, timeZone);
  const selectedDay = selected ? days.find((day) => day.slots.some((slot) => slot.start === selected))?.key : undefined;
  const [chosenDay, setChosenDay] = useState<string | undefined>(selectedDay);
  const [allDays, setAllDays] = useState(false);
  const day = days.find((entry) => entry.key === (chosenDay ?? selectedDay)) ?? days[0];
  if (!day) return <p className="rounded-xl bg-sand-100 p-4 text-brand-800">{PICKER_WORDS.empty}</p>;

  const dayIndex = days.indexOf(day);
  const shown = allDays || dayIndex >= FIRST_DAYS ? days : days.slice(0, FIRST_DAYS);
  const zone = zoneName(timeZone);
  return (
    <div className="grid gap-5">
      <fieldset className="grid gap-2">
        <legend className="field-label mb-2">{PICKER_WORDS.day}</legend>
        <div className="grid grid-cols-4 gap-2 sm:grid-cols-8">
          {shown.map((entry) => (
            <label key={entry.key} className={`${chip} flex-col py-1.5 leading-tight`}>
              <input
                type="radio"
                className="sr-only"
                name={`${idPrefix}day`}
                value={entry.key}
                checked={entry.key === day.key}
                onChange={() => setChosenDay(entry.key)}
                aria-label={entry.label}
              />
              <span aria-hidden="true" className="text-xs font-medium uppercase">
                {entry.weekday}
              </span>
              <span aria-hidden="true" className="text-lg">
                {entry.number}
              </span>
              <span aria-hidden="true" className="text-xs font-medium">
                {entry.month}
              </span>
            </label>
          ))}
          {shown.length < days.length && (
            <button
              type="button"
              className="min-h-11 rounded-xl border-[1.5px] border-dashed border-brand-700 px-2 text-sm font-semibold text-brand-800"
              onClick={() => setAllDays(true)}
            >
              {PICKER_WORDS.moreDays}
            </button>
          )}
        </div>
      </fieldset>
      <fieldset className="grid gap-2" aria-describedby={zone ? `${idPrefix}zone` : undefined}>
        <legend className="field-label mb-2">
          {PICKER_WORDS.time}: <span className="font-normal">{day.label}</span>
        </legend>
        {zone && (
          <p id={`${idPrefix}zone`} className="field-hint -mt-1">
            {PICKER_WORDS.zone} {zone}
          </p>
        )}
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {day.slots.map((slot) => (
            <label key={slot.start} className={chip}>
              <input
                type="radio"
                className="sr-only"
                name={`${idPrefix}time`}
                value={slot.start}
                checked={slot.start === selected}
                onChange={() => onSelect(slot.start)}
              />
              {clockOf(slot.start, timeZone)}
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
