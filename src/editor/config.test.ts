import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROJECT_ROOT, readDataFiles } from '../data/content-check.ts';
import { formatProblem } from '../data/problems.ts';
import { DATA_FILES, type DataFileName, LIST_KEYS } from '../data/rules.ts';
import { GALLERY_SIZE, modelSchema } from '../data/schemas.ts';
import { editorConfig, fileFields } from './config.ts';
import { type EditorField, editorField } from './fields.ts';
import { editedFileProblems, problemsMessage } from './validate.ts';

type Entry = Record<string, unknown>;
const shipped = readDataFiles();
const names = Object.keys(DATA_FILES) as DataFileName[];

/** Every field with its path, nested lists and objects included. */
function walk(fields: readonly EditorField[], prefix = ''): [string, EditorField][] {
  return fields.flatMap((field) => {
    const here = `${prefix}${field.name}`;
    return [
      [here, field] as [string, EditorField],
      ...walk(field.fields ?? [], `${here}.`),
      ...(field.field ? walk([field.field], `${here}[].`) : []),
    ];
  });
}

/** The keys of a data file's value, the way the editor's fields name them. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length && typeof value[0] === 'object' ? keysOf(value[0], prefix) : [];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const here = `${prefix}${key}`;
    return [here, ...keysOf(item, `${here}.`)];
  });
}

describe("the editor's form", () => {
  it('has a field, with a Spanish label, for every key of every data file', () => {
    for (const name of names) {
      const fields = new Map(walk(fileFields(name)));
      const file =
        name in LIST_KEYS ? { [LIST_KEYS[name as keyof typeof LIST_KEYS]]: shipped.data[name] } : shipped.data[name];
      for (const key of keysOf(file)) expect(fields.has(key), `${DATA_FILES[name]}: ${key}`).toBe(true);
      for (const [key, field] of fields) expect(field.label, `${DATA_FILES[name]}: ${key}`).not.toBe(field.name);
    }
  });

  it("takes the limits and the messages from the build's schemas", () => {
    const model = new Map(walk(fileFields('models')));
    expect(model.get('models.priceFromMxn')).toMatchObject({
      label: 'Precio "desde", en pesos',
      hint: 'Por ejemplo 229000.',
      widget: 'number',
      value_type: 'int',
      min: 1,
    });
    const [format] = modelSchema.shape.delivery._zod.def.checks ?? [];
    const delivery = (format?._zod.def as { pattern?: RegExp } | undefined)?.pattern ?? /$^/;
    expect(model.get('models.delivery')?.pattern).toEqual([
      delivery.source,
      'escribe el plazo con dos números y la unidad, como "4-6 semanas" o "2-4 meses".',
    ]);
    expect(model.get('models.description')).toMatchObject({
      widget: 'text',
      pattern: ['^[\\s\\S]{1,220}$', 'admite como máximo 220 caracteres: acórtalo.'],
      hint: 'Máximo 220 caracteres.',
    });
    expect(model.get('models.features')).toMatchObject({ widget: 'list', min: 3, max: 6 });
    expect(model.get('models.image')).toMatchObject({
      widget: 'image',
      media_library: { config: { max_file_size: 1_500_000 } },
    });
    expect(new Map(walk(fileFields('gallery'))).get('images')).toMatchObject({ min: GALLERY_SIZE, max: GALLERY_SIZE });
    expect(new Map(walk(fileFields('site'))).get('phone.e164')?.pattern?.[1]).toBe(
      'debe empezar con + y el código de país, sin espacios: por ejemplo +529991234567',
    );
  });

  it('follows a schema that changes: a new rule is a new limit in the form', () => {
    const changed = z.array(
      modelSchema.extend({ warranty: z.string().max(40).describe('Garantía, por ejemplo "10 años"') }),
    );
    const field = new Map(walk([editorField('models', changed)])).get('models.warranty');
    expect(field).toMatchObject({
      label: 'Garantía',
      hint: 'Por ejemplo "10 años". Máximo 40 caracteres.',
      pattern: ['^[\\s\\S]{0,40}$', 'admite como máximo 40 caracteres: acórtalo.'],
    });
  });

  it('commits to the repository Netlify builds, and uses the local proxy only when one is given', () => {
    const production = editorConfig({ repo: 'ceiba/sitio', branch: 'main' });
    expect(production.backend).toMatchObject({ name: 'github', repo: 'ceiba/sitio', branch: 'main' });
    expect(production).not.toHaveProperty('local_backend');
    expect(editorConfig({ branch: 'main', localProxy: 'http://127.0.0.1:4401/api/v1' })).toMatchObject({
      local_backend: { url: 'http://127.0.0.1:4401/api/v1' },
    });
  });
});

describe('what the editor says before it saves', () => {
  const models = () => ({ models: structuredClone(shipped.data.models) as Entry[] });

  it('nothing about the files as they are', () => {
    for (const name of names) {
      const file =
        name in LIST_KEYS ? { [LIST_KEYS[name as keyof typeof LIST_KEYS]]: shipped.data[name] } : shipped.data[name];
      expect(editedFileProblems(name, file, shipped.data)).toEqual([]);
    }
  });

  it("the build's own message for a repeated id and for a text the model's data contradicts", () => {
    const edited = models();
    (edited.models[1] as Entry).id = 'salvia-glamping';
    (edited.models[2] as Entry).features = ['22.21 m²', 'Para 2 personas', 'Entrega en 6 a 8 semanas'];
    const problems = editedFileProblems('models', edited, shipped.data);
    expect(problems.map(formatProblem)).toEqual([
      'src/data/models.json, modelo "salvia-glamping" (núm. 2), campo "id": el identificador "salvia-glamping" ya lo tiene el modelo núm. 1: cada modelo necesita uno distinto.',
      'src/data/models.json, modelo "lumo" (núm. 3), campo "features", elemento 3: dice "6 a 8 semanas", pero el tiempo de entrega de este modelo (delivery) es "4-6 semanas".',
    ]);
    expect(problemsMessage(problems)).toMatch(/^No se guardó: 2 errores, como lo diría la compilación\.\n/);
  });
});

describe('the editor stays apart', () => {
  it('no public page, layout, component or admin island imports it', () => {
    const files = (dir: string): string[] =>
      readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.(astro|tsx?)$/.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
    const importers = ['src/pages', 'src/components', 'src/layouts', 'src/scripts']
      .flatMap(files)
      .filter((file) => /from ['"][./]*\/?editor\//.test(readFileSync(file, 'utf8')));
    expect(importers).toEqual([]);
  });
});
