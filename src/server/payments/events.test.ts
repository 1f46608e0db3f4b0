import { describe, expect, it } from 'vitest';
import { DEADLINE_GRACE_MS, deadlineGraceMs } from './events.ts';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe('how long after its deadline a payment is waited for', () => {
  it('an OXXO voucher: until the end of the next business day on Mexico City’s clock, then 15 minutes', () => {
    // Tuesday 23:59:59 there: Wednesday's end.
    const tuesday = at('2026-12-01T23:59:59-06:00');
    expect(tuesday + deadlineGraceMs('oxxo', tuesday)).toBe(at('2026-12-02T23:59:59-06:00') + DEADLINE_GRACE_MS);
    // Friday's and Saturday's: Monday's end.
    const friday = at('2026-12-04T23:59:59-06:00');
    expect(friday + deadlineGraceMs('oxxo', friday)).toBe(at('2026-12-07T23:59:59-06:00') + DEADLINE_GRACE_MS);
    const saturday = at('2026-12-05T12:00:00-06:00');
    expect(saturday + deadlineGraceMs('oxxo', saturday)).toBe(at('2026-12-07T23:59:59-06:00') + DEADLINE_GRACE_MS);
    // A deadline at 01:00 there (19:00 UTC the day before is another day here): the next day there.
    const early = at('2026-12-02T01:00:00-06:00');
    expect(early + deadlineGraceMs('oxxo', early)).toBe(at('2026-12-03T23:59:59-06:00') + DEADLINE_GRACE_MS);
  });

  it('a SPEI transfer, which Stripe confirms up to one business day after it is sent: as a voucher', () => {
    const friday = at('2026-12-04T23:59:59-06:00');
    expect(friday + deadlineGraceMs('spei', friday)).toBe(at('2026-12-07T23:59:59-06:00') + DEADLINE_GRACE_MS);
  });

  it('a card, or a method not known yet: 15 minutes', () => {
    const friday = at('2026-12-04T23:59:59-06:00');
    expect(deadlineGraceMs('tarjeta', friday)).toBe(15 * 60_000);
    expect(deadlineGraceMs(null, friday)).toBe(DEADLINE_GRACE_MS);
    expect(DEADLINE_GRACE_MS).toBeLessThan(HOUR);
  });
});
