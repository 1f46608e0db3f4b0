import { describe, expect, it } from 'vitest';
import { appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import { readSlotRowId, slotRowId } from './slot-choice.ts';
import { dayTitle, LIST_LIMITS, pickSlots, rowTitle, slotListMessage } from './slot-list.ts';

const CONTACT = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const OTHER = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the free slots as a list (decision 0063)', () => {
  it('says every day and time of a year within the list’s limits, on the place’s clock', () => {
    const start = Date.parse('2027-01-01T15:00:00Z');
    for (let day = 0; day < 366; day += 1) {
      const instant = start + day * DAY;
      expect(dayTitle(instant, 'America/Merida').length).toBeLessThanOrEqual(LIST_LIMITS.sectionTitle);
      expect(rowTitle(instant, 'Europe/Berlin').length).toBeLessThanOrEqual(LIST_LIMITS.rowTitle);
    }
    // Mérida is UTC−6 all year; Berlin moves with daylight saving (UTC+1 in March, UTC+2 after the 28th).
    expect(rowTitle(Date.parse('2027-03-06T16:00:00Z'), 'America/Merida')).toBe('sáb 6 mar · 10:00');
    expect(rowTitle(Date.parse('2027-03-26T09:00:00Z'), 'Europe/Berlin')).toBe('vie 26 mar · 10:00');
    expect(rowTitle(Date.parse('2027-03-29T09:00:00Z'), 'Europe/Berlin')).toBe('lun 29 mar · 11:00');
    expect(dayTitle(Date.parse('2027-09-29T15:00:00Z'), 'America/Merida')).toBe('Miércoles 29 de sep');
    expect(dayTitle(Date.parse('2027-03-06T16:00:00Z'), 'America/Merida')).toBe('Sábado 6 de marzo');
  });

  it('offers up to three slots a day, two hours apart, ten at most', () => {
    const monday = Date.parse('2027-03-08T15:00:00Z'); // 09:00 in Mérida
    const everyHalfHour = Array.from(
      { length: 8 * 18 },
      (_, index) => monday + Math.floor(index / 18) * DAY + ((index % 18) * HOUR) / 2,
    );
    const picked = pickSlots(everyHalfHour, 'America/Merida');
    expect(picked).toHaveLength(10);
    expect(picked.slice(0, 3)).toEqual([monday, monday + 2 * HOUR, monday + 4 * HOUR]);
    expect(picked[3]).toBe(monday + DAY);
    expect(pickSlots([], 'America/Merida')).toEqual([]);
  });

  it('builds the documented list, its rows signed for the contact and no other', () => {
    const kind = appointmentKind('visita-casa-muestra');
    const place = appointmentPlace('casa-muestra-merida');
    if (!kind || !place) throw new Error('the data changed');
    const starts = [Date.parse('2027-03-06T16:00:00Z'), Date.parse('2027-03-08T15:00:00Z')];
    const message = slotListMessage(CONTACT, kind, place, starts, 'Hola Ana. ');
    expect(message?.interactive).toMatchObject({
      type: 'list',
      body: { text: expect.stringMatching(/^Hola Ana\. Estos son los próximos horarios libres/) },
      footer: { text: 'Horarios en hora de Mérida' },
      action: {
        button: 'Ver horarios',
        sections: [
          { title: 'Sábado 6 de marzo', rows: [{ title: 'sáb 6 mar · 10:00' }] },
          { title: 'Lunes 8 de marzo', rows: [{ title: 'lun 8 mar · 09:00' }] },
        ],
      },
    });
    const id = message?.interactive.action.sections[0]?.rows[0]?.id as string;
    expect(id.length).toBeLessThanOrEqual(LIST_LIMITS.rowId);
    expect(readSlotRowId(CONTACT, id)).toEqual({ kind: kind.id, place: place.id, start: starts[0] });
    expect(readSlotRowId(OTHER, id)).toBeNull();
    expect(readSlotRowId(CONTACT, id.replace('casa-muestra-merida', 'oficina-cdmx'))).toBeNull();
    expect(readSlotRowId(CONTACT, `${id}x`)).toBeNull();
    expect(slotRowId(CONTACT, { kind: kind.id, place: place.id, start: starts[0] as number })).toBe(id);
    expect(slotListMessage(CONTACT, kind, place, [], '')).toBeNull();
  });
});
