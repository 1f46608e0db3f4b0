import { describe, expect, it } from 'vitest';
import { nextContactInstant } from './contacts.ts';
import {
  formatNextContact,
  fromMeridaWallTime,
  isOverdue,
  isPast,
  meridaDaysAhead,
  meridaWallTime,
} from './merida-time.ts';
import { OUTCOMES, stateAfter } from './outcomes.ts';

describe("Mérida's clock for the next contact", () => {
  it('"vencido" is a next contact of a day before today in Mérida, not a moment passed (decision 0053)', () => {
    const now = new Date('2026-11-25T17:00:00.000Z'); // 11:00 in Mérida
    expect(isOverdue('2026-11-25T15:00:00.000Z', now)).toBe(false); // 9:00 today: "Para hoy"
    expect(isOverdue('2026-11-25T05:59:00.000Z', now)).toBe(true); // 23:59 yesterday in Mérida
    expect(isOverdue('2026-11-25T06:00:00.000Z', now)).toBe(false); // today's first minute
  });

  it('reads and writes wall times in Mérida (UTC-6), whatever the zone of the machine', () => {
    expect(fromMeridaWallTime('2026-11-25T10:00')).toBe('2026-11-25T16:00:00.000Z');
    expect(fromMeridaWallTime('2026-12-31T23:30')).toBe('2027-01-01T05:30:00.000Z');
    expect(meridaWallTime('2027-01-01T05:30:00.000Z')).toBe('2026-12-31T23:30');
    expect(fromMeridaWallTime('2026-02-30T10:00')).toBeNull();
    expect(fromMeridaWallTime('mañana')).toBeNull();
  });

  it('proposes tomorrow at 10:00 from Mérida’s today, across months and years', () => {
    // 23:30 on 31 December in Mérida is already 1 January in UTC.
    const lateNight = new Date('2027-01-01T05:30:00Z');
    expect(meridaDaysAhead(1, '10:00', lateNight)).toBe('2027-01-01T16:00:00.000Z');
    expect(meridaDaysAhead(3, '09:15', new Date('2026-11-29T18:00:00Z'))).toBe('2026-12-02T15:15:00.000Z');
  });

  it('a date alone (the panel before issue #26) means 10:00 in Mérida', () => {
    expect(nextContactInstant('2026-12-01')).toBe('2026-12-01T16:00:00.000Z');
    expect(nextContactInstant('2026-12-01T10:00-06:00')).toBe('2026-12-01T16:00:00.000Z');
  });

  it('shows a moment in Spanish and says when it is past', () => {
    expect(formatNextContact('2026-11-25T16:00:00.000Z')).toMatch(/^mié.* 25 .*nov.* 10:00/);
    expect(isPast('2026-11-25T16:00:00.000Z', Date.parse('2026-11-25T16:00:01Z'))).toBe(true);
    expect(isPast('2026-11-25T16:00:00.000Z', Date.parse('2026-11-25T15:59:59Z'))).toBe(false);
  });
});

describe('an outcome’s state', () => {
  it('moves an open contact forward only, closes an open one with "No le interesa", never reopens or re-closes', () => {
    expect(stateAfter('nuevo', OUTCOMES.hablamos)).toBe('contactado');
    expect(stateAfter('en_seguimiento', OUTCOMES.hablamos)).toBe('en_seguimiento');
    expect(stateAfter('nuevo', OUTCOMES.no_contesto)).toBe('nuevo');
    expect(stateAfter('contactado', OUTCOMES.agendo_visita)).toBe('en_seguimiento');
    expect(stateAfter('en_seguimiento', OUTCOMES.no_le_interesa)).toBe('cerrado_perdido');
    expect(stateAfter('cerrado_ganado', OUTCOMES.hablamos)).toBe('cerrado_ganado');
    // Nor moves a closed contact to the other closed state (a card loaded before the sale was won).
    expect(stateAfter('cerrado_ganado', OUTCOMES.no_le_interesa)).toBe('cerrado_ganado');
  });
});
