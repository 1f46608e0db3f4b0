import { type DataProblem, describeField, formatProblem, schemaProblems } from '../data/problems.ts';
import {
  checkFiles,
  DATA_FILES,
  type DataFileName,
  type DataFiles,
  LEGAL_DIR,
  type LegalText,
  LIST_KEYS,
  unwrapList,
} from '../data/rules.ts';
import { legalPageSchema } from '../data/schemas.ts';
import type { EditorField } from './fields.ts';

/**
 * What the build would say about a file as the editor is about to save it:
 * the same rules (src/data/rules.ts and the legal pages' schema), run on the
 * edited file beside the other files as they are now (`Content`: read again
 * from the repository before each save, see readContent), so a contradiction
 * with the catalogue shows before the commit, not in the deploy's log.
 * Decision 0038.
 */

/** The content the build reads: the data files (list files unwrapped) and the legal pages' text. */
export interface Content {
  data: DataFiles;
  legal: LegalText[];
}

const key = (problem: DataProblem) => formatProblem(problem);

/**
 * The problems of saving `edited` as data file `name`: the edited file's
 * own, and those it would cause in another file (a text that states five
 * models when a sixth is added), which were not there before.
 */
export function dataFileProblems(name: DataFileName, edited: unknown, content: Content): DataProblem[] {
  let data: unknown = edited;
  if (name in LIST_KEYS) {
    const unwrapped = unwrapList(name as keyof typeof LIST_KEYS, edited);
    if ('problem' in unwrapped) return [unwrapped.problem];
    data = unwrapped.list;
  }
  const before = new Set(checkFiles(content.data, content.legal).map(key));
  return checkFiles({ ...content.data, [name]: data }, content.legal).filter(
    (problem) => problem.file === DATA_FILES[name] || !before.has(key(problem)),
  );
}

/** A legal page as the editor holds it: its front matter's fields and its text. */
export interface LegalEntry {
  title?: unknown;
  description?: unknown;
  updated?: unknown;
  body?: unknown;
}

const isoDate = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value ?? ''));

/** The page's file as the build reads it (src/content/legal/*.md): front matter, a blank line, the text. */
export function legalFileText(entry: LegalEntry): string {
  return [
    '---',
    `title: ${JSON.stringify(String(entry.title ?? ''))}`,
    `description: ${JSON.stringify(String(entry.description ?? ''))}`,
    `updated: ${isoDate(entry.updated)}`,
    '---',
    '',
    String(entry.body ?? ''),
  ].join('\n');
}

/** The path of the legal page `slug` from the project's root. */
export const legalFile = (slug: string) => `${LEGAL_DIR}/${slug}.md`;

/**
 * The problems of saving a legal page: its front matter against the
 * schema the content collection checks (the 160 characters, the date, the
 * privacy notice's version), and its text against the content check's rules
 * (an unknown {token}, a number the catalogue contradicts).
 */
export function legalPageProblems(file: string, entry: LegalEntry, content: Content): DataProblem[] {
  const { body: _body, ...frontMatter } = entry;
  const legal = [...content.legal.filter((page) => page.file !== file), { file, text: legalFileText(entry) }];
  return [
    ...schemaProblems(legalPageSchema, frontMatter, file),
    ...checkFiles(content.data, legal).filter((problem) => problem.file === file),
  ];
}

/** `content` after a save: what the next save is checked against if the repository cannot be read. */
export function withSaved(content: Content, saved: { name: DataFileName; data: unknown } | LegalText): Content {
  if ('file' in saved)
    return { ...content, legal: [...content.legal.filter((page) => page.file !== saved.file), saved] };
  let data = saved.data;
  if (saved.name in LIST_KEYS) {
    const unwrapped = unwrapList(saved.name as keyof typeof LIST_KEYS, saved.data);
    if ('problem' in unwrapped) return content;
    data = unwrapped.list;
  }
  return { ...content, data: { ...content.data, [saved.name]: data } };
}

/**
 * The content as the repository holds it now, read through `read` (the
 * editor's backend: GitHub, or the local proxy); a file it cannot read or
 * parse keeps its value in `known` (the build's, updated by this session's
 * saves), so an unreachable repository never blocks a save it would allow.
 */
export async function readContent(read: (path: string) => Promise<string>, known: Content): Promise<Content> {
  const data: DataFiles = { ...known.data };
  const legal: LegalText[] = [];
  await Promise.all([
    ...(Object.entries(DATA_FILES) as [DataFileName, string][]).map(async ([name, path]) => {
      try {
        const fresh = withSaved({ data: {}, legal: [] }, { name, data: JSON.parse(await read(path)) });
        if (name in fresh.data) data[name] = fresh.data[name];
      } catch {
        // Unreadable now: the known value stands.
      }
    }),
    ...known.legal.map(async (page) => {
      try {
        legal.push({ file: page.file, text: await read(page.file) });
      } catch {
        legal.push(page);
      }
    }),
  ]);
  legal.sort((a, b) => a.file.localeCompare(b.file));
  return { data, legal };
}

/** Every field with its path of keys, for naming a problem's field by its label. */
function labelsOf(fields: readonly EditorField[], prefix: string[] = []): Map<string, string> {
  const labels = new Map<string, string>();
  for (const field of fields) {
    const path = [...prefix, field.name];
    labels.set(path.join('.'), field.label);
    for (const [name, label] of labelsOf(field.fields ?? [], path)) labels.set(name, label);
  }
  return labels;
}

/** `Características, elemento 3`: a problem's field as the form names it, the build's words when it has no label. */
function fieldAsShown(path: readonly PropertyKey[], labels: Map<string, string>): string {
  const keys: string[] = [];
  const parts: string[] = [];
  for (const segment of path) {
    if (typeof segment === 'number') parts.push(`elemento ${segment + 1}`);
    else {
      keys.push(String(segment));
      const label = labels.get(keys.join('.'));
      if (!label) return describeField(path);
      parts.push(`«${label}»`);
    }
  }
  return parts.join(', ');
}

/**
 * The refusal as the editor shows it: what to do, then one line per
 * problem, each with where it is as the form names it (the form's title,
 * the entry, the field's label) and the build's own message.
 */
export function refusalMessage(
  problems: readonly DataProblem[],
  forms: Readonly<Record<string, { title: string; fields: readonly EditorField[] }>>,
): string {
  const count = problems.length === 1 ? '1 cosa' : `${problems.length} cosas`;
  const lines = problems.map((problem) => {
    const form = forms[problem.file];
    const labels = labelsOf(form?.fields ?? []);
    const field = problem.field?.length ? fieldAsShown(problem.field, labels) : undefined;
    const where = [form ? `«${form.title}»` : problem.file, problem.entry, field].filter(Boolean).join(', ');
    return `• ${where}: ${problem.message}`;
  });
  return [
    `hay ${count} que corregir (la misma revisión que hace el sitio al publicarse):`,
    ...lines,
    `${problems.length === 1 ? 'Corrígela' : 'Corrígelas'} y pulsa «Publicar» otra vez.`,
  ].join('\n');
}

/** A save the build's rules refuse: its text is the message alone (decap-cms shows `${error}`). */
export class SaveRefused extends Error {
  readonly problems: readonly DataProblem[];
  constructor(problems: readonly DataProblem[], message: string) {
    super(message);
    this.name = 'SaveRefused';
    this.problems = problems;
  }
  override toString(): string {
    return this.message;
  }
}
