import { useEffect, useState } from 'react';
import type { FreeSlot, SlotsAnswer } from '../../lib/appointments/booking.ts';
import { BOOKING_MESSAGES, PICKER_WORDS as W } from '../../lib/appointments/words.ts';
import { SlotPicker } from './SlotPicker.tsx';

export type Slots =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; slots: readonly FreeSlot[]; timeZone: string };

const DAY = 86_400_000;
/** The slots endpoint's widest window (MAX_SLOT_WINDOW_DAYS, booking.ts), less a day. */
const WINDOW_DAYS = 61;

/** Today on the zone's calendar, "2027-03-06". */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
}

const dateAfter = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/**
 * The free slots of a kind at a place from today to its horizon (GET
 * /api/appointments/slots), fetched again when either changes or `reload()`
 * is called; an answer for an earlier choice is dropped. With `token` (the
 * buyer's page), where that appointment may move: GET
 * /api/appointments/manage/slots, its own time counting as free.
 */
export function useSlots(
  kind: { id: string; horizonDays: number } | undefined,
  place: { id: string; timeZone: string } | undefined,
  token?: string,
): [Slots, () => void] {
  const [slots, setSlots] = useState<Slots>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const kindId = kind?.id;
  const horizon = kind?.horizonDays ?? 30;
  const placeId = place?.id;
  const timeZone = place?.timeZone ?? 'America/Merida';

  // biome-ignore lint/correctness/useExhaustiveDependencies: round asks for the same slots again
  useEffect(() => {
    if (!kindId || !placeId) return;
    const abort = new AbortController();
    const from = todayIn(timeZone);
    const to = dateAfter(from, Math.min(horizon, WINDOW_DAYS));
    const query = new URLSearchParams(token ? { t: token, from, to } : { kind: kindId, place: placeId, from, to });
    setSlots({ state: 'loading' });
    fetch(`/api/appointments/${token ? 'manage/slots' : 'slots'}?${query}`, { signal: abort.signal })
      .then(async (response) => {
        const answer = (await response.json().catch(() => ({}))) as Partial<SlotsAnswer> & { error?: string };
        if (abort.signal.aborted) return;
        if (response.ok && answer.slots)
          setSlots({ state: 'ready', slots: answer.slots, timeZone: answer.timeZone ?? timeZone });
        else setSlots({ state: 'error', message: answer.error ?? BOOKING_MESSAGES.unavailable });
      })
      .catch(() => {
        if (!abort.signal.aborted) setSlots({ state: 'error', message: BOOKING_MESSAGES.unavailable });
      });
    return () => abort.abort();
  }, [kindId, placeId, timeZone, horizon, token, round]);

  return [slots, () => setRound((value) => value + 1)];
}

/** The free slots, or why there are none yet: loading, error (with a retry), empty. */
export function SlotsView({
  slots,
  reload,
  selected,
  onSelect,
  idPrefix,
}: {
  slots: Slots;
  reload(): void;
  selected: string | null;
  onSelect(start: string): void;
  idPrefix: string;
}) {
  if (slots.state === 'loading')
    return (
      <p role="status" className="rounded-xl bg-sand-100 p-4 text-brand-800">
        {W.loading}
      </p>
    );
  if (slots.state === 'error')
    return (
      <div role="alert" className="grid gap-2 rounded-xl bg-sand-100 p-4">
        <p className="text-brand-900">{slots.message}</p>
        <button type="button" className="btn btn-outline justify-self-start" onClick={reload}>
          {W.retry}
        </button>
      </div>
    );
  return (
    <SlotPicker
      slots={slots.slots as FreeSlot[]}
      timeZone={slots.timeZone}
      selected={selected}
      onSelect={onSelect}
      idPrefix={idPrefix}
    />
  );
}
