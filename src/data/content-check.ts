import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  CATALOGUE_TOKENS,
  catalogueValues,
  contradictionProblems,
  fillDeep,
  type PlacedText,
  textsOf,
} from './catalogue.ts';
import { jsonSyntaxError } from './json-syntax.ts';
import { LEGAL_TOKENS } from './legal.ts';
import { type DataProblem, schemaProblems } from './problems.ts';
import {
  GALLERY_SIZE,
  galleryImageSchema,
  landingSchema,
  modelSchema,
  pagesSchema,
  sellingPointSchema,
  siteSchema,
  stepSchema,
} from './schemas.ts';

/**
 * The build's check of everything a marketer edits (src/data/*.json and the
 * legal pages): every mistake, in Spanish, with its file, entry and field.
 * Runs before Astro reads the content collections (src/integrations/
 * content-check.ts), so a broken file fails the build with these messages
 * rather than with Astro's. Node only: it reads files.
 */

/** The project's root: two folders up from this file. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/** Each data file, by the name the checks use, with its path from the project's root. */
export const DATA_FILES = {
  site: 'src/data/site.json',
  landing: 'src/data/landing.json',
  pages: 'src/data/pages.json',
  models: 'src/data/models.json',
  gallery: 'src/data/gallery.json',
  sellingPoints: 'src/data/selling-points.json',
  steps: 'src/data/steps.json',
} as const;
export type DataFileName = keyof typeof DATA_FILES;
/** The parsed contents of the data files; a file that could not be read is absent. */
export type DataFiles = Partial<Record<DataFileName, unknown>>;

export const LEGAL_DIR = 'src/content/legal';
/** A legal page's text, with its path from the project's root. */
export interface LegalText {
  file: string;
  text: string;
}

const OBJECTS = { site: siteSchema, landing: landingSchema, pages: pagesSchema } as const;

/** List files: their entry schema and how to name an entry (`el modelo "lumo" (núm. 3)`). */
const LISTS = {
  models: { schema: modelSchema, noun: 'modelo', the: 'el' },
  gallery: { schema: galleryImageSchema, noun: 'imagen', the: 'la' },
  sellingPoints: { schema: sellingPointSchema, noun: 'punto de venta', the: 'el' },
  steps: { schema: stepSchema, noun: 'paso', the: 'el' },
} as const;

/** Files whose entries point at an image file. */
const WITH_IMAGES = ['models', 'gallery'] as const;

function idOf(entry: unknown): string | undefined {
  const id = (entry as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function entryName(noun: string, entry: unknown, index: number): string {
  const id = idOf(entry);
  return id ? `${noun} "${id}" (núm. ${index + 1})` : `${noun} núm. ${index + 1}`;
}

/** Reads and parses one JSON file; a missing file or a syntax error is a problem. */
export function readJsonFile(root: string, file: string): { data: unknown } | { problem: DataProblem } {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    return { problem: { file, message: 'no se encuentra el archivo.' } };
  }
  try {
    return { data: JSON.parse(text) };
  } catch (error) {
    const { line, column, hint, excerpt } = jsonSyntaxError(text, error);
    return {
      problem: { file, entry: `línea ${line}, columna ${column}`, message: `no es JSON válido: ${hint}\n${excerpt}` },
    };
  }
}

/** Reads every data file; the ones that cannot be read come back as problems. */
export function readDataFiles(root = PROJECT_ROOT): { data: DataFiles; problems: DataProblem[] } {
  const data: DataFiles = {};
  const problems: DataProblem[] = [];
  for (const [name, file] of Object.entries(DATA_FILES) as [DataFileName, string][]) {
    const read = readJsonFile(root, file);
    if ('problem' in read) problems.push(read.problem);
    else data[name] = read.data;
  }
  return { data, problems };
}

/** Reads the legal pages (src/content/legal/*.md). */
export function readLegalTexts(root = PROJECT_ROOT): LegalText[] {
  return readdirSync(path.join(root, LEGAL_DIR))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const file = `${LEGAL_DIR}/${name}`;
      return { file, text: readFileSync(path.join(root, file), 'utf8') };
    });
}

function listProblems(name: keyof typeof LISTS, entries: unknown, root: string): DataProblem[] {
  const file = DATA_FILES[name];
  const { schema, noun, the } = LISTS[name];
  if (!Array.isArray(entries))
    return [{ file, message: `debe ser una lista entre corchetes [ ], con un bloque { } por ${noun}.` }];
  const name_ = (index: number) => entryName(noun, entries[index], index);
  const problems = schemaProblems(z.array(schema), entries, file, name_);

  const firstWithId = new Map<string, number>();
  entries.forEach((entry, index) => {
    const id = idOf(entry);
    if (id === undefined) return;
    const first = firstWithId.get(id);
    if (first === undefined) firstWithId.set(id, index);
    else
      problems.push({
        file,
        entry: name_(index),
        field: ['id'],
        message: `el identificador "${id}" ya lo tiene ${the} ${noun} núm. ${first + 1}: cada ${noun} necesita uno distinto.`,
      });
  });

  if ((WITH_IMAGES as readonly string[]).includes(name)) {
    const dataDir = path.join(root, path.dirname(file));
    entries.forEach((entry, index) => {
      const image = (entry as { image?: unknown } | null)?.image;
      if (typeof image !== 'string' || image === '') return;
      const target = path.resolve(dataDir, image);
      if (!existsSync(target))
        problems.push({
          file,
          entry: name_(index),
          field: ['image'],
          message: `no existe el archivo ${path.relative(root, target)}: revisa el nombre (mayúsculas, extensión) o copia ahí la imagen.`,
        });
    });
  }

  if (name === 'gallery' && entries.length !== GALLERY_SIZE)
    problems.push({
      file,
      message: `la galería debe tener exactamente ${GALLERY_SIZE} imágenes (tiene ${entries.length}): agrega o quita imágenes hasta que sean ${GALLERY_SIZE}.`,
    });
  return problems;
}

/** `{email}` and `{domicilio}` are filled in by the page; any other `{…}` would show as is. */
export function legalTokenProblems(legal: readonly LegalText[]): DataProblem[] {
  const tokens = [...LEGAL_TOKENS, ...Object.keys(CATALOGUE_TOKENS)];
  const known = tokens.map((token) => `{${token}}`).join(', ');
  return legal.flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, index) =>
      [...line.matchAll(/\{([^{}\n]*)\}/g)]
        .filter((match) => !tokens.includes(match[1] as string))
        .map((match) => ({
          file,
          entry: `línea ${index + 1}`,
          message: `${match[0]} no es un dato que la página sepa poner: usa ${known}, o escribe el texto tal cual.`,
        })),
    ),
  );
}

/**
 * The texts that state numbers about the catalogue: the page copy, the
 * landing's lists, each model's own texts and the legal pages, each with
 * where it is. Only files that matched their schemas.
 */
function catalogueTexts(data: DataFiles, legal: readonly LegalText[]): PlacedText[] {
  const texts: PlacedText[] = [];
  for (const name of ['landing', 'pages'] as const)
    if (OBJECTS[name].safeParse(data[name]).success)
      for (const { path: field, text } of textsOf(data[name])) texts.push({ file: DATA_FILES[name], field, text });
  for (const name of ['sellingPoints', 'steps', 'models'] as const) {
    const entries = data[name];
    if (!z.array(LISTS[name].schema).safeParse(entries).success) continue;
    (entries as unknown[]).forEach((entry, index) => {
      const model = name === 'models' ? modelSchema.parse(entry) : undefined;
      for (const { path: field, text } of textsOf(entry))
        if (field[0] !== 'image' && field[0] !== 'id' && field[0] !== 'delivery')
          texts.push({
            file: DATA_FILES[name],
            entry: entryName(LISTS[name].noun, entry, index),
            field,
            text,
            ...(model ? { model } : {}),
          });
    });
  }
  const legalTokens = [...LEGAL_TOKENS, ...Object.keys(CATALOGUE_TOKENS)];
  for (const { file, text } of legal)
    text.split('\n').forEach((line, index) => {
      texts.push({ file, entry: `línea ${index + 1}`, text: line, tokens: legalTokens });
    });
  return texts;
}

/** Every problem of the data files already read (`data`) and of the legal pages. */
export function checkContent(data: DataFiles, legal: readonly LegalText[], root = PROJECT_ROOT): DataProblem[] {
  const problems: DataProblem[] = [];
  const models = z.array(modelSchema).min(1).safeParse(data.models);
  const site = siteSchema.safeParse(data.site);
  // Limits (an SEO description's 160 characters) count the text as pages show it, tokens filled in.
  const values = models.success && site.success ? catalogueValues(models.data, site.data.startingPrice) : undefined;
  const shown = (value: unknown) => (values ? fillDeep(value, values) : value);
  for (const [name, schema] of Object.entries(OBJECTS) as [keyof typeof OBJECTS, z.ZodType][])
    if (name in data) problems.push(...schemaProblems(schema, shown(data[name]), DATA_FILES[name]));
  for (const name of Object.keys(LISTS) as (keyof typeof LISTS)[])
    if (name in data) problems.push(...listProblems(name, name === 'models' ? data[name] : shown(data[name]), root));
  if (models.success && site.success)
    problems.push(...contradictionProblems(catalogueTexts(data, legal), models.data, site.data.startingPrice));
  else problems.push(...legalTokenProblems(legal));
  return problems;
}

/** Reads and checks everything: every problem of every file, in order. */
export function contentProblems(root = PROJECT_ROOT): DataProblem[] {
  const { data, problems } = readDataFiles(root);
  return [...problems, ...checkContent(data, readLegalTexts(root), root)];
}
