import { describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import { CONSENT_CLOCK_SKEW_MS, consentRecord } from './consent.ts';

const now = new Date('2026-11-24T12:00:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
const DAY = 86_400_000;

describe('the consent a lead records (issue #25)', () => {
  it('keeps the version and the time of the press, days before delivery', () => {
    expect(consentRecord({ privacy_version: '2026-11-23', privacy_accepted_at: at(-6 * DAY) }, now)).toEqual({
      version: '2026-11-23',
      acceptedAt: at(-6 * DAY),
    });
  });

  it("uses the server's version and time when the request brings none", () => {
    expect(consentRecord({}, now)).toEqual({ version: PRIVACY_NOTICE_VERSION, acceptedAt: now.toISOString() });
  });

  it("never records a time after the server's; a device a little ahead gives the server's time", () => {
    expect(consentRecord({ privacy_accepted_at: at(CONSENT_CLOCK_SKEW_MS - 1) }, now).acceptedAt).toBe(
      now.toISOString(),
    );
  });

  it('does not believe a time further ahead, or older than the outbox keeps a request', () => {
    expect(consentRecord({ privacy_accepted_at: at(CONSENT_CLOCK_SKEW_MS + 1) }, now).acceptedAt).toBe(
      now.toISOString(),
    );
    expect(consentRecord({ privacy_accepted_at: at(-8 * DAY) }, now).acceptedAt).toBe(now.toISOString());
    expect(consentRecord({ privacy_accepted_at: at(-7 * DAY) }, now).acceptedAt).toBe(at(-7 * DAY));
  });

  it('accepts an offset other than Z', () => {
    expect(consentRecord({ privacy_accepted_at: '2026-11-24T05:00:00-06:00' }, now).acceptedAt).toBe(
      '2026-11-24T11:00:00.000Z',
    );
  });
});
