import { describe, expect, it } from 'vitest';
import { WHATSAPP_CONSENT } from '../../data/whatsapp-consent.ts';
import { consentAnswer, consentQuestion } from './consent.ts';

describe('the consent question on WhatsApp', () => {
  it('fits WhatsApp’s reply buttons: a body of at most 1,024 characters, titles of at most 20, ids apart', () => {
    const { body, interactive } = consentQuestion('https://www.ceibacasas.mx/aviso-de-privacidad');
    expect(body).toContain('https://www.ceibacasas.mx/aviso-de-privacidad');
    expect(body).not.toContain('{aviso}');
    // Room for a long site address.
    expect(body.length + 200).toBeLessThanOrEqual(1024);
    const buttons = (interactive as { action: { buttons: { reply: { id: string; title: string } }[] } }).action.buttons;
    expect(buttons).toHaveLength(2);
    for (const { reply } of buttons) {
      expect(reply.title.length).toBeGreaterThan(0);
      expect(reply.title.length).toBeLessThanOrEqual(20);
      expect(reply.id.length).toBeLessThanOrEqual(256);
    }
    expect(WHATSAPP_CONSENT.yes.id).not.toBe(WHATSAPP_CONSENT.no.id);
  });

  it('reads a press of its buttons, and nothing else, as an answer', () => {
    const press = (type: string, reply: object) => ({ type: 'interactive', interactive: { type, ...reply } });
    expect(consentAnswer(press('button_reply', { button_reply: { id: 'consentimiento:si', title: 'Sí' } }))).toBe('si');
    expect(consentAnswer(press('button_reply', { button_reply: { id: 'consentimiento:no', title: 'No' } }))).toBe('no');
    // Another button, a list's row with our id, a text, nothing.
    expect(consentAnswer(press('button_reply', { button_reply: { id: 'otro', title: 'Sí' } }))).toBeNull();
    expect(consentAnswer(press('list_reply', { list_reply: { id: 'consentimiento:si', title: 'Sí' } }))).toBeNull();
    expect(consentAnswer({ type: 'text', text: { body: 'consentimiento:si' } })).toBeNull();
    expect(consentAnswer(null)).toBeNull();
  });
});
