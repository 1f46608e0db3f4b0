import { describe, expect, it } from 'vitest';
import { touchWords } from './attribution.ts';

/** Issue #43: where a person came from, in the team's words. */
describe('touchWords', () => {
  it('names the ad platforms, the campaign and the WhatsApp ad', () => {
    expect(touchWords({ utm_source: 'whatsapp', utm_medium: 'anuncio', utm_campaign: 'Casa Ceiba en 6 semanas' })).toBe(
      'Anuncio de WhatsApp «Casa Ceiba en 6 semanas»',
    );
    expect(touchWords({ utm_source: 'whatsapp', utm_medium: 'mensaje' })).toBe('Escribió por WhatsApp');
    expect(touchWords({ utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'otono-2026' })).toBe(
      'Google Ads, campaña «otono-2026»',
    );
    expect(touchWords({ gclid: 'Cj0KCQ' })).toBe('Google Ads');
    expect(touchWords({ utm_source: 'facebook', utm_medium: 'paid_social', utm_campaign: 'sand' })).toBe(
      'Anuncio de Meta (Facebook o Instagram), campaña «sand»',
    );
    expect(touchWords({ fbc: 'fb.1.1.x' })).toBe('Anuncio de Meta (Facebook o Instagram)');
    expect(touchWords({ utm_source: 'newsletter', utm_medium: 'email' })).toBe('newsletter (email)');
    expect(touchWords({ referrer: 'https://www.ejemplo.mx/blog' })).toBe('Enlace desde www.ejemplo.mx');
    expect(touchWords({})).toBe('Directo (sin campaña)');
  });
});
