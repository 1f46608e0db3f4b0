import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greetingName, NAME_MAX, nameOrPhone, realName } from './person-name.ts';
import { renderTemplate, templateFor, templateParameters, WHATSAPP_TEMPLATES } from './whatsapp/templates.ts';
import { quickReplyValues, renderQuickReply } from './whatsapp/words.ts';

/** Issue #38, item 2: what a visitor typed as a name becomes our words only when it is a name. */
describe('a name from a visitor', () => {
  it('is the letters of a real name in any script, with accents, spaces, apostrophes and hyphens', () => {
    expect(realName('  María   José López ')).toBe('María José López');
    expect(realName("O'Brien")).toBe("O'Brien");
    expect(realName('Fernanda Aké-Dzib')).toBe('Fernanda Aké-Dzib');
    expect(realName('D’Artagnan Núñez')).toBe('D’Artagnan Núñez');
    expect(realName('Δήμητρα')).toBe('Δήμητρα');
    expect(realName('Jose\u0301')).toBe('José'); // a combining accent, composed
    expect(greetingName('María José López')).toBe('María');
    expect(greetingName('Ñoño')).toBe('Ñoño');
  });

  it('is never a URL, an e-mail, digits, markup or anything else; then there is none', () => {
    for (const value of [
      'https://evil.example/pago-anticipo Juan',
      'Juan https://evil.example',
      'evil.example',
      'juan@evil.example',
      'Juan 4 pagos',
      'Paga 5000',
      '<b>Juan</b>',
      'Juan & Ana',
      'Juan\u202Efdp',
      'Juan\u200b',
      'ＳＴＯＰ：／／x',
      '',
      '   ',
      "'",
      '-Juan',
      'a'.repeat(NAME_MAX + 1),
    ]) {
      expect(realName(value), value).toBeNull();
      expect(greetingName(value), value).toBeNull();
    }
    expect(greetingName('Wolfeschlegelsteinhausenbergerdorff')).toBeNull();
  });

  it('whatever is typed, what comes out has only letters, marks, spaces, apostrophes and hyphens', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.webUrl(), fc.emailAddress()), (value) => {
        const name = realName(value);
        if (name !== null) {
          expect(name).toMatch(/^[\p{L}\p{M}' ’-]+$/u);
          expect(name.length).toBeLessThanOrEqual(NAME_MAX);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('names the contact in our subjects, or their phone when it is no name', () => {
    expect(nameOrPhone('Ana López', '+529991234567')).toBe('Ana López');
    expect(nameOrPhone('https://evil.example/pago', '+529991234567')).toBe('999 123 4567');
  });
});

describe('the templates our number sends', () => {
  it('greet by first name, or use their approved twin without the name', () => {
    const first = WHATSAPP_TEMPLATES[0];
    const named = templateFor(first, { name: 'Fernanda Aké Dzib' });
    expect(named.template.name).toBe('primer_contacto');
    expect(templateParameters(named.template, named.values)).toEqual(['Fernanda']);

    const nameless = templateFor(first, { name: 'https://evil.example/pago-anticipo Juan' });
    expect(nameless.template.name).toBe('primer_contacto_sin_nombre');
    expect(templateParameters(nameless.template, nameless.values)).toEqual([]);
    expect(renderTemplate(nameless.template, nameless.values)).toBe(
      'Hola, gracias por escribir a Ceiba Casas Modulares. Un asesor te contactará muy pronto por este medio.',
    );
  });

  it('each with {nombre} has an approved twin without any variable, in the same language', () => {
    for (const template of WHATSAPP_TEMPLATES) {
      const twin = templateFor(template, { name: '1234' }).template;
      expect(twin.name).not.toBe(template.name);
      expect(twin.body).not.toMatch(/\{\w+\}/);
      expect(twin.language).toBe(template.language);
    }
  });

  it('quick replies take the same first name, and drop the mark when there is none', () => {
    const body = 'Hola {nombre}, soy {asesor} de Ceiba.';
    expect(renderQuickReply(body, quickReplyValues('Ana López', 'Jorge May'))).toBe('Hola Ana, soy Jorge de Ceiba.');
    expect(renderQuickReply(body, quickReplyValues('http://x.example', 'Jorge May'))).toBe('Hola, soy Jorge de Ceiba.');
  });
});
