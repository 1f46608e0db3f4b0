import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROJECT_ROOT, readDataFiles, readLegalTexts } from '../data/content-check.ts';
import { PRIVACY_NOTICE_VERSION } from '../data/legal.ts';
import { formatProblem } from '../data/problems.ts';
import { DATA_FILES, type DataFileName, LIST_KEYS, legalTokenProblems } from '../data/rules.ts';
import { GALLERY_SIZE, legalPageSchema, modelSchema } from '../data/schemas.ts';
import { editorConfig, editorForms, fileFields, legalFields } from './config.ts';
import { type EditorField, editorField, objectFields } from './fields.ts';
import {
  type Content,
  dataFileProblems,
  legalFileText,
  legalPageProblems,
  readContent,
  refusalMessage,
  SaveRefused,
  withSaved,
} from './validate.ts';

type Entry = Record<string, unknown>;
const shipped = readDataFiles();
const legal = readLegalTexts();
const content: Content = { data: shipped.data, legal };
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

  it('names each page by its address and says what a position means', () => {
    const pages = new Map(walk(fileFields('pages')));
    expect(pages.get('socios')?.label).toBe('Página /prefiltro-socios');
    const order = new Map(walk(fileFields('models'))).get('models.order');
    expect(order).toMatchObject({ label: 'Posición en la página', hint: 'El número más bajo se muestra primero.' });
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
      expect(dataFileProblems(name, file, content)).toEqual([]);
    }
  });

  it("the build's own message for a repeated id and for a text the model's data contradicts", () => {
    const edited = models();
    (edited.models[1] as Entry).id = 'salvia-glamping';
    (edited.models[2] as Entry).features = ['22.21 m²', 'Para 2 personas', 'Entrega en 6 a 8 semanas'];
    const problems = dataFileProblems('models', edited, content);
    expect(problems.map(formatProblem)).toEqual([
      'src/data/models.json, modelo "salvia-glamping" (núm. 2), campo "id": el identificador "salvia-glamping" ya lo tiene el modelo núm. 1: cada modelo necesita uno distinto.',
      'src/data/models.json, modelo "lumo" (núm. 3), campo "features", elemento 3: dice "6 a 8 semanas", pero el tiempo de entrega de este modelo (delivery) es "4-6 semanas".',
    ]);
  });

  it('says it as a list, each line where the form shows it, with no "Error:" and no file paths', () => {
    const edited = models();
    (edited.models[1] as Entry).id = 'salvia-glamping';
    (edited.models[2] as Entry).description = 'x'.repeat(221);
    const refusal = new SaveRefused([], refusalMessage(dataFileProblems('models', edited, content), editorForms()));
    // decap-cms shows `No se ha podido guardar la entrada: ${error}`.
    expect(`${refusal}`.split('\n')).toEqual([
      'hay 2 cosas que corregir (la misma revisión que hace el sitio al publicarse):',
      '• «Modelos y precios», modelo "lumo" (núm. 3), «Descripción de la tarjeta»: admite como máximo 220 caracteres (tiene 221): acórtalo.',
      '• «Modelos y precios», modelo "salvia-glamping" (núm. 2), «Identificador, en minúsculas y con guiones»: el identificador "salvia-glamping" ya lo tiene el modelo núm. 1: cada modelo necesita uno distinto.',
      'Corrígelas y pulsa «Publicar» otra vez.',
    ]);
  });

  it('refuses a save that would make another file wrong, naming that file', () => {
    const landing = structuredClone(shipped.data.landing) as { hero: { subtitle: string } };
    landing.hero.subtitle = 'Cinco modelos para elegir.';
    const before = withSaved(content, { name: 'landing', data: landing });
    const sixth = models();
    sixth.models.push({ ...(sixth.models[0] as Entry), id: 'casa-ceiba', name: 'Casa Ceiba', order: 6 });
    const problems = dataFileProblems('models', sixth, before);
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /^src\/data\/landing\.json, campo "hero\.subtitle": dice "Cinco modelos", pero el catálogo tiene 6 modelos/,
      ),
    ]);
  });

  it('names a legal page by its title and a field by its label in one line', () => {
    const file = 'src/content/legal/aviso-de-privacidad.md';
    const message = refusalMessage(
      [{ file, field: ['description'], message: 'admite como máximo 160 caracteres (tiene 161): acórtalo.' }],
      editorForms([{ file, title: 'Aviso de privacidad' }]),
    );
    expect(message.split('\n')).toEqual([
      'hay 1 cosa que corregir (la misma revisión que hace el sitio al publicarse):',
      '• «Aviso de privacidad», «Descripción para Google»: admite como máximo 160 caracteres (tiene 161): acórtalo.',
      'Corrígela y pulsa «Publicar» otra vez.',
    ]);
  });

  it('checks each save against the saves before it in the same session, not the files the editor was built with', () => {
    const sixth = models();
    sixth.models.push({ ...(sixth.models[0] as Entry), id: 'casa-ceiba', name: 'Casa Ceiba', order: 6 });
    const landing = structuredClone(shipped.data.landing) as { hero: { subtitle: string } };
    landing.hero.subtitle = 'Cinco modelos para elegir.';
    expect(dataFileProblems('landing', landing, content)).toEqual([]);
    const afterSave = withSaved(content, { name: 'models', data: sixth });
    expect(dataFileProblems('landing', landing, afterSave).map(formatProblem)).toEqual([
      expect.stringMatching(
        /^src\/data\/landing\.json, campo "hero\.subtitle": dice "Cinco modelos", pero el catálogo tiene 6 modelos/,
      ),
    ]);
  });

  it('reads the files as the repository holds them now, keeping what it cannot read', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'editor-content-'));
    try {
      cpSync(path.join(PROJECT_ROOT, 'src'), path.join(copy, 'src'), { recursive: true });
      const sixth = models();
      sixth.models.push({ ...(sixth.models[0] as Entry), id: 'casa-ceiba', name: 'Casa Ceiba', order: 6 });
      writeFileSync(path.join(copy, DATA_FILES.models), JSON.stringify(sixth));
      writeFileSync(path.join(copy, DATA_FILES.steps), '{ "steps": [ ');
      const read = async (file: string) => readFileSync(path.join(copy, file), 'utf8');
      const now = await readContent(read, content);
      expect((now.data.models as Entry[]).map((model) => model.id)).toContain('casa-ceiba');
      expect(now.data.steps).toEqual(shipped.data.steps);
      expect(now.legal).toEqual(legal);
      const offline = await readContent(() => Promise.reject(new Error('sin red')), content);
      expect(offline).toEqual(content);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the legal pages in the editor', () => {
  const privacy = legal.find((page) => page.file.endsWith('aviso-de-privacidad.md'));
  const entry = (changes: Record<string, unknown> = {}) => ({
    title: 'Aviso de privacidad',
    description: 'Conoce cómo tratamos tus datos.',
    updated: PRIVACY_NOTICE_VERSION,
    body: 'Escríbenos a {email}.',
    ...changes,
  });

  it("takes its fields, labels and limits from the content collection's schema", () => {
    const fields = new Map(legalFields().map((field) => [field.name, field]));
    expect(legalFields().slice(0, -1)).toEqual(objectFields(legalPageSchema));
    const max = legalPageSchema.shape.description._zod.def.checks?.[0]?._zod.def as unknown as { maximum: number };
    expect(fields.get('description')).toMatchObject({
      label: 'Descripción para Google',
      hint: `Máximo ${max.maximum} caracteres.`,
      pattern: [`^[\\s\\S]{0,${max.maximum}}$`, `admite como máximo ${max.maximum} caracteres: acórtalo.`],
    });
    expect(fields.get('updated')).toMatchObject({
      label: 'Fecha de la última actualización',
      pattern: ['^\\d{4}-\\d{2}-\\d{2}$', 'escribe la fecha como 2026-11-24 (año-mes-día).'],
    });
    expect(fields.get('body')?.hint).toContain('{domicilio}');
    // Its preview is HTML in the panel's own origin: sanitized (a pasted <script> or onerror does not run).
    expect(fields.get('body')?.sanitize_preview).toBe(true);
    const config = editorConfig({ branch: 'main' });
    expect(config.collections.find((collection) => collection.name === 'legal')).toMatchObject({
      fields: legalFields(),
    });
  });

  it('writes the page as the build reads it', () => {
    expect(privacy).toBeDefined();
    const text = privacy?.text ?? '';
    const [, title, description, updated] =
      /^---\ntitle: (".*")\ndescription: (".*")\nupdated: (.*)\n---\n\n/.exec(text) ?? [];
    const body = text.slice(text.indexOf('---\n\n', 4) + 5);
    expect(
      legalFileText({ title: JSON.parse(title ?? '""'), description: JSON.parse(description ?? '""'), updated, body }),
    ).toBe(text);
  });

  it("refuses an unknown {token} with the content check's own message and line", () => {
    const file = privacy?.file ?? '';
    const page = entry({ body: 'Escríbenos a {email}.\nLlámanos al {telefono}.' });
    const problems = legalPageProblems(file, page, content);
    expect(problems).toEqual(legalTokenProblems([{ file, text: legalFileText(page) }]));
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(/^src\/content\/legal\/aviso-de-privacidad\.md, línea 8: \{telefono\} no es un dato/),
    ]);
  });

  it("refuses a privacy notice dated other than the version leads record, and a long description, as the collection's schema does", () => {
    const file = privacy?.file ?? '';
    const problems = legalPageProblems(file, entry({ updated: '2026-12-01', description: 'x'.repeat(161) }), content);
    expect(problems.map(formatProblem)).toEqual([
      `${file}, campo "description": admite como máximo 160 caracteres (tiene 161): acórtalo.`,
      `${file}, campo "updated": la fecha del aviso de privacidad debe ser ${PRIVACY_NOTICE_VERSION}, la versión que guarda cada solicitud (PRIVACY_NOTICE_VERSION en src/data/legal.ts): cambiar el aviso es cosa de desarrollo, que cambia las dos juntas.`,
    ]);
    expect(legalPageProblems(file, entry({ updated: '24/11/2026' }), content).map(formatProblem)).toContain(
      `${file}, campo "updated": escribe la fecha como 2026-11-24 (año-mes-día).`,
    );
    expect(legalPageProblems(file, entry(), content)).toEqual([]);
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
