import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { jsonSyntaxError } from './json-syntax.ts';
import type { DataProblem } from './problems.ts';
import {
  checkFiles,
  DATA_FILES,
  type DataFileName,
  type DataFiles,
  entryName,
  LEGAL_DIR,
  type LegalText,
  LIST_KEYS,
  LISTS,
  unwrapList,
  WITH_IMAGES,
} from './rules.ts';
import { MAX_IMAGE_BYTES } from './schemas.ts';

export { DATA_FILES, type DataFileName, type DataFiles, LEGAL_DIR, type LegalText, LIST_KEYS } from './rules.ts';
/**
 * The build's check of everything a marketer edits (src/data/*.json and the
 * legal pages): every mistake, in Spanish, with its file, entry and field.
 * Runs before Astro reads the content collections (src/integrations/
 * content-check.ts), so a broken file fails the build with these messages
 * rather than with Astro's. Node only: it reads files.
 */

/** The project's root: two folders up from this file. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

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

/** Reads every data file (a list file's list unwrapped); the ones that cannot be read come back as problems. */
export function readDataFiles(root = PROJECT_ROOT): { data: DataFiles; problems: DataProblem[] } {
  const data: DataFiles = {};
  const problems: DataProblem[] = [];
  for (const [name, file] of Object.entries(DATA_FILES) as [DataFileName, string][]) {
    const read = readJsonFile(root, file);
    if ('problem' in read) problems.push(read.problem);
    else if (name in LIST_KEYS) {
      const unwrapped = unwrapList(name as keyof typeof LIST_KEYS, read.data);
      if ('problem' in unwrapped) problems.push(unwrapped.problem);
      else data[name] = unwrapped.list;
    } else data[name] = read.data;
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

/** Each image an entry points at exists, and is light enough for a phone. */
function imageProblems(name: (typeof WITH_IMAGES)[number], entries: unknown, root: string): DataProblem[] {
  if (!Array.isArray(entries)) return [];
  const file = DATA_FILES[name];
  const name_ = (index: number) => entryName(LISTS[name].noun, entries[index], index);
  const problems: DataProblem[] = [];
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
    else if (statSync(target).size > MAX_IMAGE_BYTES)
      problems.push({
        file,
        entry: name_(index),
        field: ['image'],
        message: `${path.relative(root, target)} pesa ${(statSync(target).size / 1e6).toFixed(1)} MB: el máximo es ${MAX_IMAGE_BYTES / 1e6} MB. Guárdala más chica (2000 px de ancho bastan) o en formato .webp.`,
      });
  });
  return problems;
}

/** Every problem of the data files already read (`data`) and of the legal pages, images on disk included. */
export function checkContent(data: DataFiles, legal: readonly LegalText[], root = PROJECT_ROOT): DataProblem[] {
  return [
    ...checkFiles(data, legal),
    ...WITH_IMAGES.flatMap((name) => (name in data ? imageProblems(name, data[name], root) : [])),
  ];
}

/** Reads and checks everything: every problem of every file, in order. */
export function contentProblems(root = PROJECT_ROOT): DataProblem[] {
  const { data, problems } = readDataFiles(root);
  return [...problems, ...checkContent(data, readLegalTexts(root), root)];
}
