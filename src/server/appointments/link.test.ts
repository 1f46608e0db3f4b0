import { describe, expect, it } from 'vitest';
import { manageToken, manageUrl, readManageToken } from './link.ts';

const ID = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const NOW = Date.parse('2027-03-01T12:00:00Z');

describe('the appointment link token', () => {
  it('names its appointment until it expires', () => {
    const token = manageToken(ID, NOW + 3_600_000);
    expect(token).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(readManageToken(token, NOW)).toEqual({ ok: true, appointmentId: ID });
    expect(readManageToken(token, NOW + 3_600_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token with any byte changed', () => {
    const token = manageToken(ID, NOW + 3_600_000);
    for (const at of [0, 10, 20, 30, 47]) {
      const changed = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect(readManageToken(changed, NOW)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(readManageToken('', NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(readManageToken(`${token}x`, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is a link of the site', () => {
    expect(manageUrl('https://ejemplo.mx/', 'abc')).toBe('https://ejemplo.mx/cita?t=abc');
  });
});
