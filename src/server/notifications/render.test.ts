import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leadWebhookBody, webhookSignature } from './channels/webhook.ts';
import { leadWhatsappParameters } from './channels/whatsapp.ts';
import type { LeadMessage } from './message.ts';
import { escapeHtml, inboundMessageEmail, leadEmail, reminderEmail, summaryEmail } from './render.ts';

const visitorText = fc
  .tuple(
    fc.string(),
    fc.constantFrom('<x-visitor onload=alert(1)>', '"><x-visitor>', "'&<x-visitor/>", ''),
    fc.string(),
  )
  .map((parts) => parts.join(''));

function lead(text: string): LeadMessage {
  return {
    leadId: '5266dc2b-5368-4679-b2b0-292be1b7e5a9',
    kind: 'quote-requests',
    form: 'estimacion',
    title: 'Nueva estimación',
    subject: `Nueva estimación: ${text}`,
    headline: text,
    name: text,
    phone: '+529991234567',
    email: null,
    municipality: text,
    createdAt: '2026-11-22T16:05:08.901Z',
    fields: [
      { label: 'Nombre', value: text },
      { label: 'Acabados', value: text },
    ],
    attribution: { utm_campaign: text, referrer: text },
    data: { name: text },
    contactId: '9b1c0000-0000-4000-8000-000000000000',
    links: {
      panel: 'https://www.ceibacasas.mx/admin/prospecto?id=9b1c0000-0000-4000-8000-000000000000',
      whatsapp: `https://wa.me/529991234567?text=${encodeURIComponent(text)}`,
      phone: 'tel:+529991234567',
    },
    sale: null,
  };
}

describe('what a visitor typed, in a notification', () => {
  it('is never markup in the e-mail: every value appears escaped, no tag of theirs survives', () => {
    fc.assert(
      fc.property(visitorText, (text) => {
        const { html, text: plain } = leadEmail(lead(text));
        expect(html).not.toContain('<x-visitor');
        expect(html).toContain(escapeHtml(text));
        expect(plain).toContain(text);
      }),
      { numRuns: 300 },
    );
  });

  it('travels as JSON data in the webhook and as flat text in the WhatsApp template', () => {
    fc.assert(
      fc.property(visitorText, (text) => {
        const body = JSON.parse(leadWebhookBody(lead(text)));
        expect(body.lead.name).toBe(text);
        expect(body.lead.attribution.utm_campaign).toBe(text);
        // The subject's name and place (src/lib/person-name.ts decides what of them is said).
        expect(leadWhatsappParameters(lead(text))[1]).toBe(text);
      }),
    );
  });
});

describe('the webhook signature', () => {
  it('is the documented sha256= HMAC of "<timestamp>.<body>" (docs/webhook.md)', () => {
    // Computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac secreto-de-prueba
    expect(webhookSignature('secreto-de-prueba', '1700000000', '{"a":1}')).toBe(
      'sha256=a98721d9303971fa0256de8a6f2d9ccc417ccd185bb1591543447256aee3fc6a',
    );
  });
});

describe('phones in the e-mails (issue #26)', () => {
  it('read as a person writes them ("999 123 4567"); the links keep E.164', () => {
    const message = { ...lead('Rosa'), fields: [{ label: 'Teléfono', value: '+529991234567' }] };
    const email = leadEmail(message);
    expect(email.text).toContain('Teléfono: 999 123 4567');
    expect(email.text).toContain('Llamar: tel:+529991234567');
    expect(email.html).toContain('Llamar al 999 123 4567');
    expect(email.html).toContain('href="tel:+529991234567"');
    expect(email.text).not.toMatch(/Teléfono: \+52/);

    const reminder = reminderEmail('5266dc2b-5368-4679-b2b0-292be1b7e5a9', {
      contactName: 'Rosa',
      phone: '+525512345678',
      at: '2026-11-25T16:00:00.000Z',
      url: 'https://www.ceibacasas.mx/admin/prospecto?id=1',
      to: 'ana@ceiba.mx',
    });
    expect(reminder.text).toContain('Teléfono: 55 1234 5678');

    const summary = summaryEmail('5266dc2b-5368-4679-b2b0-292be1b7e5a9', {
      day: '2026-11-25',
      leads: [
        {
          createdAt: '2026-11-24T16:00:00.000Z',
          title: 'Nueva estimación',
          name: 'Rosa',
          phone: '+529991234567',
          municipality: null,
        },
      ],
      waiting: [
        {
          name: 'Luis',
          phone: '+529997654321',
          since: '2026-11-20T16:00:00.000Z',
          panel: 'https://www.ceibacasas.mx/admin',
        },
      ],
      panel: 'https://www.ceibacasas.mx/admin',
    });
    expect(summary.text).toContain('Rosa · 999 123 4567');
    expect(summary.text).toContain('Luis · 999 765 4321');
  });
});

describe('a name that is no name, in a subject (issue #38)', () => {
  it('is replaced by the phone as a person reads it; a real name stays', () => {
    const reminder = (contactName: string) =>
      reminderEmail('5266dc2b-5368-4679-b2b0-292be1b7e5a9', {
        contactName,
        phone: '+529991234567',
        at: '2026-11-25T16:00:00.000Z',
        url: 'https://www.ceibacasas.mx/admin/prospecto?id=1',
        to: 'ana@ceiba.mx',
      }).subject;
    expect(reminder('Raúl Canché')).toMatch(/^Toca contactar a Raúl Canché · /);
    expect(reminder('https://evil.example/pago-anticipo Juan')).toMatch(/^Toca contactar a 999 123 4567 · /);
    const inbound = inboundMessageEmail('5266dc2b-5368-4679-b2b0-292be1b7e5a9', {
      contactName: 'Paga ya en evil.example',
      phone: '+529991234567',
      preview: 'Hola',
      unread: 1,
      inbound: 1,
      url: 'https://www.ceibacasas.mx/admin/prospecto?id=1',
      to: 'ana@ceiba.mx',
    });
    expect(inbound.subject).toMatch(/^999 123 4567 te escribió por WhatsApp · /);
  });
});
