import { describe, expect, it } from 'vitest';
import { site } from '../../data/site.ts';
import { parseConfig } from '../config.ts';
import {
  buyerPayUrl,
  LINK_LIFETIME_AFTER_START_MS,
  manageToken,
  manageUrl,
  readManageToken,
  readPayToken,
} from './link.ts';

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

describe('the buyer’s payment link (the WhatsApp confirmation, the e-mails)', () => {
  const start = NOW + 72 * 3_600_000;
  const stripe = { STRIPE_SECRET_KEY: 'sk_test_abcdefgh12345678', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh12345678' };

  it('with online payments, is the site’s /pagar for this very appointment, until a day after its start', () => {
    const url = new URL(buyerPayUrl({ id: ID, start }, parseConfig({ ...stripe, SITE_URL: 'https://ejemplo.mx' })));
    expect(`${url.origin}${url.pathname}`).toBe('https://ejemplo.mx/pagar');
    const token = url.searchParams.get('t') ?? '';
    expect(readPayToken(token, NOW)).toEqual({ ok: true, appointmentId: ID });
    expect(readPayToken(token, start + LINK_LIFETIME_AFTER_START_MS)).toEqual({ ok: false, reason: 'expired' });
    // A payment link is no link to change the appointment.
    expect(readManageToken(token, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('without them, is the site’s payment link', () => {
    expect(buyerPayUrl({ id: ID, start }, parseConfig({}))).toBe(site.paymentLink);
  });
});
