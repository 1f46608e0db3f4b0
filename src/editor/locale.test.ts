import en from 'decap-cms-locales/dist/esm/en/index.js';
import { describe, expect, it } from 'vitest';
import { EDITOR_PHRASES } from './locale.ts';

/** Every text of a locale, by its dotted key. */
function texts(phrases: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(phrases))
    if (typeof value === 'string') found.set(`${prefix}${key}`, value);
    else for (const [inner, text] of texts(value as object, `${prefix}${key}.`)) found.set(inner, text);
  return found;
}

describe("the editor's interface language", () => {
  const spanish = texts(EDITOR_PHRASES);

  it("has a Spanish text for each of decap-cms's English ones, with the same placeholders", () => {
    const english = texts(en);
    const missing = [...english.keys()].filter((key) => !spanish.has(key));
    expect(missing).toEqual([]);
    for (const [key, text] of english) {
      const placeholders = (value: string) => (value.match(/%\{\w+\}/g) ?? []).sort();
      expect(placeholders(spanish.get(key) ?? ''), key).toEqual(placeholders(text));
    }
    // The three the walk saw in English.
    expect(spanish.get('editor.editorWidgets.object.expand')).toBe('Mostrar');
    expect(spanish.get('mediaLibrary.mediaLibraryCard.copyName')).toBe('Copiar el nombre');
    expect(spanish.get('editor.editorInterface.togglePreview')).toBe('Mostrar u ocultar la vista previa');
  });

  it('speaks to a Mexican marketer as tú, in Mexican words', () => {
    const peninsular =
      /rellen|relléne|guárdel|compruebe|infórmenos|copie|arrastre|\bestá seguro|\btiene cambios|actualice|añadir|ordenador|\bvale\b|no se ha podido/i;
    const found = [...spanish].filter(([, text]) => peninsular.test(text));
    expect(found).toEqual([]);
    expect(spanish.get('ui.toast.missingRequiredField')).toBe('Falta un campo obligatorio: llénalo antes de guardar.');
  });
});
