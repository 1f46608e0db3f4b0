import { z } from 'zod';
import {
  CATALOGUE_TOKENS,
  catalogueValues,
  contradictionProblems,
  fillDeep,
  type PlacedText,
  textsOf,
} from './catalogue.ts';
import { LEGAL_TOKENS } from './legal.ts';
import { type DataProblem, schemaProblems } from './problems.ts';
import {
  appointmentsSchema,
  GALLERY_SIZE,
  galleryImageSchema,
  landingSchema,
  modelSchema,
  pagesSchema,
  sellingPointSchema,
  siteSchema,
  stepSchema,
  voiceAgentSchema,
} from './schemas.ts';

/**
 * The rules of the data files that need no disk, in Spanish, with file,
 * entry and field: the build's content check (content-check.ts, which adds
 * what needs the disk: syntax, missing images, their size) and the editor
 * (src/editor/, before it saves) run the same ones, so both say the same.
 */

export const LEGAL_DIR = 'src/content/legal';
/** A legal page's text, with its path from the project's root. */
export interface LegalText {
  file: string;
  text: string;
}

/** Each data file, by the name the checks use, with its path from the project's root. */
export const DATA_FILES = {
  site: 'src/data/site.json',
  landing: 'src/data/landing.json',
  pages: 'src/data/pages.json',
  models: 'src/data/models.json',
  gallery: 'src/data/gallery.json',
  sellingPoints: 'src/data/selling-points.json',
  steps: 'src/data/steps.json',
  appointments: 'src/data/appointments.json',
  voiceAgent: 'src/data/voice-agent.json',
} as const;
export type DataFileName = keyof typeof DATA_FILES;
/** The parsed contents of the data files; a file that could not be read is absent. */
export type DataFiles = Partial<Record<DataFileName, unknown>>;

export const OBJECTS = {
  site: siteSchema,
  landing: landingSchema,
  pages: pagesSchema,
  appointments: appointmentsSchema,
  voiceAgent: voiceAgentSchema,
} as const;

/** List files: their entry schema and how to name an entry (`el modelo "lumo" (núm. 3)`). */
export const LISTS = {
  models: { schema: modelSchema, noun: 'modelo', the: 'el' },
  gallery: { schema: galleryImageSchema, noun: 'imagen', the: 'la' },
  sellingPoints: { schema: sellingPointSchema, noun: 'punto de venta', the: 'el' },
  steps: { schema: stepSchema, noun: 'paso', the: 'el' },
} as const;

/** Files whose entries point at an image file. */
export const WITH_IMAGES = ['models', 'gallery'] as const;

function idOf(entry: unknown): string | undefined {
  const id = (entry as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export function entryName(noun: string, entry: unknown, index: number): string {
  const id = idOf(entry);
  return id ? `${noun} "${id}" (núm. ${index + 1})` : `${noun} núm. ${index + 1}`;
}

/**
 * The key each list file keeps its list under: `{ "models": [ … ] }`. A file
 * whose top level is an object is one the editor can write (decision 0038).
 */
export const LIST_KEYS = { models: 'models', gallery: 'images', sellingPoints: 'points', steps: 'steps' } as const;

/** The list inside a list file, or the problem with its shape. */
export function unwrapList(
  name: keyof typeof LIST_KEYS,
  parsed: unknown,
): { list: unknown } | { problem: DataProblem } {
  const key = LIST_KEYS[name];
  const list = (parsed as Record<string, unknown> | null)?.[key];
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Array.isArray(list)) return { list };
  return {
    problem: {
      file: DATA_FILES[name],
      message: `debe ser un bloque { "${key}": [ … ] } con la lista dentro, entre corchetes, y un bloque { } por ${LISTS[name].noun}.`,
    },
  };
}

export function listRuleProblems(name: keyof typeof LISTS, entries: unknown): DataProblem[] {
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

/**
 * Every problem of the data files already read (`data`, list files
 * unwrapped) and of the legal pages that needs no disk: the schemas (limits
 * counted on the text as pages show it), repeated ids, the gallery's count,
 * the catalogue's tokens and contradictions. The editor runs it too.
 */
export function checkFiles(data: DataFiles, legal: readonly LegalText[] = []): DataProblem[] {
  const problems: DataProblem[] = [];
  const models = z.array(modelSchema).min(1).safeParse(data.models);
  const site = siteSchema.safeParse(data.site);
  // Limits (an SEO description's 160 characters) count the text as pages show it, tokens filled in.
  const values = models.success && site.success ? catalogueValues(models.data, site.data.startingPrice) : undefined;
  const shown = (value: unknown) => (values ? fillDeep(value, values) : value);
  for (const [name, schema] of Object.entries(OBJECTS) as [keyof typeof OBJECTS, z.ZodType][])
    if (name in data) problems.push(...schemaProblems(schema, shown(data[name]), DATA_FILES[name]));
  for (const name of Object.keys(LISTS) as (keyof typeof LISTS)[])
    if (name in data) problems.push(...listRuleProblems(name, name === 'models' ? data[name] : shown(data[name])));
  if ('appointments' in data) problems.push(...appointmentProblems(data.appointments));
  if (models.success && site.success)
    problems.push(...contradictionProblems(catalogueTexts(data, legal), models.data, site.data.startingPrice));
  else problems.push(...legalTokenProblems(legal));
  return problems;
}

/**
 * The rules across the appointments' lists: each kind's and place's id once,
 * each kind's places among the places (src/data/appointments.json). Fields
 * are paths from the file's top, as the editor's form names them.
 */
export function appointmentProblems(data: unknown): DataProblem[] {
  const parsed = appointmentsSchema.safeParse(data);
  if (!parsed.success) return [];
  const file = DATA_FILES.appointments;
  const problems: DataProblem[] = [];
  for (const [list, noun] of [
    ['kinds', 'tipo de cita'],
    ['places', 'lugar'],
  ] as const) {
    const first = new Map<string, number>();
    parsed.data[list].forEach((entry, index) => {
      const seen = first.get(entry.id);
      if (seen === undefined) first.set(entry.id, index);
      else
        problems.push({
          file,
          field: [list, index, 'id'],
          message: `el identificador "${entry.id}" ya lo tiene el ${noun} núm. ${seen + 1}: cada ${noun} necesita uno distinto.`,
        });
    });
  }
  const places = new Set(parsed.data.places.map((place) => place.id));
  parsed.data.kinds.forEach((kind, index) => {
    kind.places.forEach((place, position) => {
      if (!places.has(place))
        problems.push({
          file,
          field: ['kinds', index, 'places', position],
          message: `no hay un lugar con el identificador "${place}": usa uno de ${[...places].map((id) => `"${id}"`).join(', ')}.`,
        });
    });
  });
  return problems;
}
