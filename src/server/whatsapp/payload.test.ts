import { describe, expect, it } from 'vitest';
import { WHATSAPP_OPT_OUT } from '../../data/whatsapp-opt-out.ts';
import { isOptOut, plainWords, readWebhook } from './payload.ts';

/** Issue #38, item 8 (decision 0050): what a buyer in Mexico writes to stop our messages, and what only looks like it. */
describe('isOptOut', () => {
  it('honours the words alone or with courtesy around them, in any case, accent, width and punctuation', () => {
    for (const text of [
      'BAJA',
      ' ¡Bája! ',
      'Baja por favor',
      'BAJA, gracias',
      'baja porfa',
      'Baja, por favor. Gracias',
      'Por favor baja',
      'Hola, buenas tardes. Baja por favor 🙏',
      'baja xfa',
      'ＳＴＯＰ',
      'Ｂａｊａ',
      'stop.',
      'Alto',
      '¡¡ALTO!!',
      'Alto, gracias',
      'Denme de baja, por favor',
      'Quiero darme de baja',
      'Ya no me escriban, gracias',
      'Baja\n\nGracias',
    ]) {
      expect(isOptOut(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('leaves a sentence that merely contains the word for an adviser to read', () => {
    for (const text of [
      'no me des de baja',
      'No me den de baja, sí me interesa',
      'Baja California',
      'Vivo en Baja California Sur',
      '¿Cómo me doy de baja?',
      'Alto Lucero',
      'El techo es alto?',
      'Baja el precio?',
      'no, gracias',
      'gracias',
      'Por favor',
      'baja baja',
      'stop 2',
      'hola',
      '',
      '🙏',
      `baja ${'por favor '.repeat(30)}`,
    ]) {
      expect(isOptOut(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('has its list written as it is read: lower case, no accents, single spaces, no word both a request and a courtesy', () => {
    const entries = [...WHATSAPP_OPT_OUT.phrases, ...WHATSAPP_OPT_OUT.courtesy];
    for (const entry of entries) expect(plainWords(entry), entry).toBe(entry);
    expect(new Set(entries).size).toBe(entries.length);
    for (const phrase of WHATSAPP_OPT_OUT.phrases) expect(isOptOut(phrase), phrase).toBe(true);
  });
});

describe('readWebhook', () => {
  const delivery = (message: Record<string, unknown>) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            {
              field: 'messages',
              value: {
                contacts: [{ profile: { name: 'Ana' }, wa_id: '5219991234567' }],
                messages: [{ from: '5219991234567', id: 'wamid.1', timestamp: '1760000000', ...message }],
              },
            },
          ],
        },
      ],
    });

  it('reads an opt-out from a text, a button or the title of a list or button reply, never a description or a caption', () => {
    const words = (message: Record<string, unknown>) =>
      readWebhook(delivery(message), '106540352242922').messages[0]?.words;
    expect(words({ type: 'text', text: { body: 'Baja' } })).toBe('Baja');
    expect(words({ type: 'button', button: { text: 'Alto', payload: 'STOP' } })).toBe('Alto');
    expect(
      words({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b', title: 'Alto' } } }),
    ).toBe('Alto');
    expect(
      words({
        type: 'interactive',
        interactive: { type: 'list_reply', list_reply: { id: 'l', title: 'Stop', description: 'No más mensajes' } },
      }),
    ).toBe('Stop');
    expect(words({ type: 'image', image: { id: '123', caption: 'Baja' } })).toBe('');
  });
});
