import { describe, expect, it } from 'vitest';
import { meridaMonthStart } from './campaigns.ts';

describe('meridaMonthStart', () => {
  it('is midnight of the month’s first day in Mérida (UTC−6), as an instant', () => {
    expect(meridaMonthStart('2026-11').toISOString()).toBe('2026-11-01T06:00:00.000Z');
    expect(meridaMonthStart('2026-01').toISOString()).toBe('2026-01-01T06:00:00.000Z');
  });

  it('steps to the month after, across a year', () => {
    expect(meridaMonthStart('2026-12', 1).toISOString()).toBe('2027-01-01T06:00:00.000Z');
    expect(meridaMonthStart('2026-02', 1).toISOString()).toBe('2026-03-01T06:00:00.000Z');
  });

  it('follows the zone’s own history: Mérida kept summer time until 2015', () => {
    expect(meridaMonthStart('2014-06').toISOString()).toBe('2014-06-01T05:00:00.000Z');
  });
});
