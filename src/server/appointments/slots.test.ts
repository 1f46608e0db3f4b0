import { describe, expect, it } from 'vitest';
import { dateIn, freeSlots, instantOf, type SlotKind, type SlotMember, type SlotPlace, weeklySpans } from './slots.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (milliseconds: number) => new Date(milliseconds).toISOString();
const everyDay = (starts: string, ends: string, timeZone: string) =>
  [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, starts, ends, timeZone }));

const visit: SlotKind = {
  durationMinutes: 60,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minimumNoticeHours: 0,
  horizonDays: 400,
};
const merida: SlotPlace = {
  timeZone: 'America/Merida',
  hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, starts: '09:00', ends: '12:00' })),
  holidays: [],
};
const berlin: SlotPlace = {
  timeZone: 'Europe/Berlin',
  hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, starts: '09:00', ends: '12:00' })),
  holidays: [],
};
const member = (overrides: Partial<SlotMember> = {}): SlotMember => ({
  id: 'ana',
  hours: everyDay('00:00', '23:59', 'America/Merida'),
  timeOff: [],
  blocked: [],
  ...overrides,
});
const starts = (slots: { start: number }[]) => slots.map((slot) => iso(slot.start));

describe('wall clocks and instants', () => {
  it('reads Mérida as UTC-6 all year (no daylight saving since 2022) and Berlin as CET/CEST', () => {
    expect(iso(instantOf('2027-01-15', 9 * 60, 'America/Merida'))).toBe('2027-01-15T15:00:00.000Z');
    expect(iso(instantOf('2027-07-15', 9 * 60, 'America/Merida'))).toBe('2027-07-15T15:00:00.000Z');
    expect(iso(instantOf('2027-01-15', 9 * 60, 'Europe/Berlin'))).toBe('2027-01-15T08:00:00.000Z');
    expect(iso(instantOf('2027-07-15', 9 * 60, 'Europe/Berlin'))).toBe('2027-07-15T07:00:00.000Z');
  });

  it('gives an instant its date on the zone’s calendar', () => {
    expect(dateIn(at('2027-03-29T03:00:00Z'), 'America/Merida')).toBe('2027-03-28');
    expect(dateIn(at('2027-03-29T03:00:00Z'), 'Europe/Berlin')).toBe('2027-03-29');
  });

  it('turns weekly hours into instants date by date, each in its own zone', () => {
    const spans = weeklySpans(
      [{ weekday: 1, starts: '09:00', ends: '10:00', timeZone: 'Europe/Berlin' }],
      at('2027-03-20T00:00:00Z'),
      at('2027-04-06T00:00:00Z'),
    );
    // Monday 22 March in CET (UTC+1), Mondays 29 March and 5 April in CEST (UTC+2).
    expect(spans.map((span) => iso(span.start))).toEqual([
      '2027-03-22T08:00:00.000Z',
      '2027-03-29T07:00:00.000Z',
      '2027-04-05T07:00:00.000Z',
    ]);
  });
});

describe('free slots', () => {
  const friday = { from: at('2027-03-05T00:00:00Z'), to: at('2027-03-06T00:00:00Z'), now: at('2027-03-01T00:00:00Z') };

  it('starts every 30 minutes inside the place’s hours, the whole appointment inside them', () => {
    const slots = freeSlots({ kind: visit, place: merida, members: [member()], ...friday });
    expect(starts(slots)).toEqual([
      '2027-03-05T15:00:00.000Z',
      '2027-03-05T15:30:00.000Z',
      '2027-03-05T16:00:00.000Z',
      '2027-03-05T16:30:00.000Z',
      '2027-03-05T17:00:00.000Z',
    ]);
    expect(slots[0]).toMatchObject({ end: at('2027-03-05T16:00:00Z'), members: ['ana'] });
  });

  it('skips the place’s holidays, dates of its own calendar', () => {
    const closed = { ...merida, holidays: ['2027-03-05'] };
    expect(freeSlots({ kind: visit, place: closed, members: [member()], ...friday })).toEqual([]);
    // The place's calendar decides: 2027-03-06 00:00 UTC is still Friday the 5th in Mérida, not its holiday.
    const late = { ...merida, hours: [{ weekday: 5, starts: '17:00', ends: '19:00' }], holidays: ['2027-03-06'] };
    expect(
      starts(freeSlots({ kind: visit, place: late, members: [member()], ...friday, to: at('2027-03-07T00:00:00Z') })),
    ).toEqual(['2027-03-05T23:00:00.000Z', '2027-03-05T23:30:00.000Z', '2027-03-06T00:00:00.000Z']);
  });

  it('keeps the minimum notice and the horizon, counted from now', () => {
    const now = at('2027-03-05T13:10:00Z');
    const noticed = freeSlots({
      kind: { ...visit, minimumNoticeHours: 3 },
      place: merida,
      members: [member()],
      ...friday,
      now,
    });
    expect(starts(noticed)).toEqual(['2027-03-05T16:30:00.000Z', '2027-03-05T17:00:00.000Z']);
    const week = { from: at('2027-03-01T00:00:00Z'), to: at('2027-03-31T00:00:00Z'), now: at('2027-03-01T00:00:00Z') };
    const near = freeSlots({ kind: { ...visit, horizonDays: 2 }, place: merida, members: [member()], ...week });
    expect(new Set(near.map((slot) => dateIn(slot.start, 'America/Merida')))).toEqual(
      new Set(['2027-03-01', '2027-03-02']),
    );
  });

  it('keeps the buffers around what a member already holds, and none over their time off', () => {
    const kind = { ...visit, bufferBeforeMinutes: 15, bufferAfterMinutes: 15 };
    const busy = member({ blocked: [{ start: at('2027-03-05T15:00:00Z'), end: at('2027-03-05T16:00:00Z') }] });
    // Without buffers 16:00 UTC is free; with them it holds from 15:45, over the held time.
    expect(starts(freeSlots({ kind: visit, place: merida, members: [busy], ...friday }))[0]).toBe(
      '2027-03-05T16:00:00.000Z',
    );
    expect(starts(freeSlots({ kind, place: merida, members: [busy], ...friday }))).toEqual([
      '2027-03-05T16:30:00.000Z',
      '2027-03-05T17:00:00.000Z',
    ]);
    const off = member({ timeOff: [{ start: at('2027-03-05T15:00:00Z'), end: at('2027-03-05T16:30:00Z') }] });
    expect(starts(freeSlots({ kind: visit, place: merida, members: [off], ...friday }))).toEqual([
      '2027-03-05T16:30:00.000Z',
      '2027-03-05T17:00:00.000Z',
    ]);
  });

  it('offers a slot while one member is free, and names the free ones', () => {
    const held = { start: at('2027-03-05T15:00:00Z'), end: at('2027-03-05T16:00:00Z') };
    const slots = freeSlots({
      kind: visit,
      place: merida,
      members: [member({ id: 'ana', blocked: [held] }), member({ id: 'beto' })],
      everyMember: true,
      ...friday,
    });
    expect(slots[0]).toMatchObject({ start: held.start, members: ['beto'] });
    expect(slots[2]).toMatchObject({ start: at('2027-03-05T16:00:00Z'), members: ['ana', 'beto'] });
  });

  it('needs the member’s own hours, on their own clock', () => {
    // A Mérida adviser working 10:00–11:30 Mérida time: only the 10:00 and 10:30 starts of a 60-minute visit fit.
    const ana = member({ hours: everyDay('10:00', '11:30', 'America/Merida') });
    expect(starts(freeSlots({ kind: visit, place: merida, members: [ana], ...friday }))).toEqual([
      '2027-03-05T16:00:00.000Z',
      '2027-03-05T16:30:00.000Z',
    ]);
    expect(freeSlots({ kind: visit, place: merida, members: [], ...friday })).toEqual([]);
  });
});

describe('America/Merida against Europe/Berlin across daylight saving', () => {
  // A Mérida adviser gives the Berlin office's video calls from 02:00 to 05:00 Mérida time (08:00–11:00 UTC).
  const ana = member({ hours: everyDay('02:00', '05:00', 'America/Merida') });
  const week = (from: string, to: string) => ({ from: at(from), to: at(to), now: at('2027-01-01T00:00:00Z') });

  it('moves the Berlin hours an hour earlier in UTC after 2027-03-28, while Mérida’s stay put', () => {
    const slots = freeSlots({
      kind: visit,
      place: berlin,
      members: [ana],
      ...week('2027-03-25T00:00:00Z', '2027-03-31T00:00:00Z'),
    });
    const byDate = Object.groupBy(slots, (slot) => dateIn(slot.start, 'Europe/Berlin'));
    // Before the switch Berlin 09:00–12:00 is 08:00–11:00 UTC: all of it inside Ana's hours.
    expect(starts(byDate['2027-03-26'] ?? [])).toEqual([
      '2027-03-26T08:00:00.000Z',
      '2027-03-26T08:30:00.000Z',
      '2027-03-26T09:00:00.000Z',
      '2027-03-26T09:30:00.000Z',
      '2027-03-26T10:00:00.000Z',
    ]);
    // After it Berlin 09:00–12:00 is 07:00–10:00 UTC: Ana (still 08:00–11:00 UTC) covers its last two hours.
    expect(starts(byDate['2027-03-29'] ?? [])).toEqual([
      '2027-03-29T08:00:00.000Z',
      '2027-03-29T08:30:00.000Z',
      '2027-03-29T09:00:00.000Z',
    ]);
  });

  it('moves them back after 2027-10-31', () => {
    const slots = freeSlots({
      kind: visit,
      place: berlin,
      members: [ana],
      ...week('2027-10-28T00:00:00Z', '2027-11-02T00:00:00Z'),
    });
    const byDate = Object.groupBy(slots, (slot) => dateIn(slot.start, 'Europe/Berlin'));
    expect(starts(byDate['2027-10-29'] ?? [])).toEqual([
      '2027-10-29T08:00:00.000Z',
      '2027-10-29T08:30:00.000Z',
      '2027-10-29T09:00:00.000Z',
    ]);
    expect(byDate['2027-11-01']?.length).toBe(5);
  });

  it('counts the real time of a day that skips or repeats an hour', () => {
    const berliner = member({ hours: everyDay('00:00', '23:59', 'Europe/Berlin') });
    const night = (weekday: number): SlotPlace => ({
      timeZone: 'Europe/Berlin',
      hours: [{ weekday, starts: '01:00', ends: '05:00' }],
      holidays: [],
    });
    // Sunday 28 March: 01:00 CET (00:00 UTC) to 05:00 CEST (03:00 UTC) is three hours, not four.
    const spring = freeSlots({
      kind: visit,
      place: night(7),
      members: [berliner],
      ...week('2027-03-28T00:00:00Z', '2027-03-29T00:00:00Z'),
    });
    expect(starts(spring)).toEqual([
      '2027-03-28T00:00:00.000Z',
      '2027-03-28T00:30:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-03-28T02:00:00.000Z',
    ]);
    // Sunday 31 October: 01:00 CEST (23:00 UTC the day before) to 05:00 CET (04:00 UTC) is five hours.
    const autumn = freeSlots({
      kind: visit,
      place: night(7),
      members: [berliner],
      ...week('2027-10-30T00:00:00Z', '2027-11-01T00:00:00Z'),
    });
    expect(autumn).toHaveLength(9);
    expect(iso(autumn[0]?.start ?? 0)).toBe('2027-10-30T23:00:00.000Z');
    expect(iso(autumn.at(-1)?.end ?? 0)).toBe('2027-10-31T04:00:00.000Z');
  });

  it('gives the same Mérida slots in January and July (no daylight saving since 2022)', () => {
    const winter = freeSlots({
      kind: visit,
      place: merida,
      members: [member()],
      ...week('2027-01-15T00:00:00Z', '2027-01-16T00:00:00Z'),
    });
    const summer = freeSlots({
      kind: visit,
      place: merida,
      members: [member()],
      ...week('2027-07-15T00:00:00Z', '2027-07-16T00:00:00Z'),
    });
    expect(starts(winter).map((start) => start.slice(11))).toEqual(starts(summer).map((start) => start.slice(11)));
    expect(starts(winter)[0]).toBe('2027-01-15T15:00:00.000Z');
  });
});
