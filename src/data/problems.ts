import { z } from 'zod';

/**
 * A mistake in a data file, said in Spanish for whoever edits it: the file,
 * the entry of a list (`modelo "lumo" (núm. 3)`), the field and what to do.
 */
export interface DataProblem {
  file: string;
  entry?: string;
  /** Path inside the entry (or the file), e.g. ['hero', 'highlights', 1]. */
  field?: readonly PropertyKey[];
  message: string;
}

/** `campo "hero.highlights", elemento 2`: keys joined by dots, list positions counted from 1. */
export function describeField(path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  let keys: string[] = [];
  const flush = () => {
    if (keys.length) parts.push(`campo "${keys.join('.')}"`);
    keys = [];
  };
  for (const segment of path) {
    if (typeof segment === 'number') {
      flush();
      parts.push(`elemento ${segment + 1}`);
    } else keys.push(String(segment));
  }
  flush();
  return parts.join(', ');
}

/** `src/data/models.json, modelo "lumo" (núm. 3), campo "priceFromMxn": debe ser un número…` */
export function formatProblem(problem: DataProblem): string {
  const where = [problem.file, problem.entry, problem.field?.length ? describeField(problem.field) : undefined];
  return `${where.filter(Boolean).join(', ')}: ${problem.message}`;
}

/** Thrown when a data file is wrong: its message lists every problem, in Spanish. */
export class DataError extends Error {
  readonly problems: readonly DataProblem[];
  constructor(problems: readonly DataProblem[]) {
    const count = problems.length === 1 ? 'Hay 1 error' : `Hay ${problems.length} errores`;
    super(
      `${count} en los datos del sitio; corrígelos y vuelve a intentar:\n${problems.map((problem) => `- ${formatProblem(problem).replaceAll('\n', '\n  ')}`).join('\n')}`,
    );
    this.name = 'DataError';
    this.problems = problems;
  }
}

type RawIssue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'un texto entre comillas',
  number: 'un número sin comillas',
  int: 'un número entero sin comillas',
  boolean: 'true o false, sin comillas',
  array: 'una lista entre corchetes [ ]',
  object: 'un bloque entre llaves { }',
  null: 'null',
};

function quoted(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

/** What a number written as text ("$229,000 MXN") should be (229000), when it is one. */
function asNumber(value: string): number | undefined {
  const digits = value.replace(/MXN|m²|m2|\$|,|\s/gi, '');
  return digits !== '' && Number.isFinite(Number(digits)) ? Number(digits) : undefined;
}

function invalidType(issue: RawIssue & { expected: string }, label: string | undefined): string {
  const input = issue.input;
  if (input === undefined) return label ? `falta este campo (${label}).` : 'falta este campo.';
  if (input === null) return `no puede quedar vacío (null): debe ser ${TYPE_NAMES[issue.expected] ?? 'un valor'}.`;
  if ((issue.expected === 'number' || issue.expected === 'int') && typeof input === 'string') {
    const number = asNumber(input);
    return number === undefined
      ? `debe ser un número sin comillas (está escrito como texto: ${quoted(input)}).`
      : `debe ser un número, por ejemplo ${number} (está escrito como texto: ${quoted(input)}); quita las comillas, los signos y las comas.`;
  }
  if (issue.expected === 'int' && typeof input === 'number')
    return `debe ser un número entero, sin decimales (dice ${input}).`;
  return `debe ser ${TYPE_NAMES[issue.expected] ?? issue.expected} (dice ${quoted(input)}).`;
}

function plural(count: number | bigint, one: string, many: string): string {
  return `${count} ${Number(count) === 1 ? one : many}`;
}

function sizeOf(input: unknown): number | undefined {
  return typeof input === 'string' || Array.isArray(input) ? input.length : undefined;
}

function tooSmall(issue: RawIssue & { origin: string; minimum: number | bigint; exact?: boolean }): string {
  const size = sizeOf(issue.input);
  const has = size === undefined ? '' : ` (tiene ${size})`;
  if (issue.origin === 'string')
    return Number(issue.minimum) <= 1
      ? 'no puede quedar vacío.'
      : `debe tener al menos ${plural(issue.minimum, 'carácter', 'caracteres')}${has}.`;
  if (issue.origin === 'array')
    return issue.exact
      ? `debe tener exactamente ${plural(issue.minimum, 'elemento', 'elementos')}${has}.`
      : `debe tener al menos ${plural(issue.minimum, 'elemento', 'elementos')}${has}.`;
  return issue.inclusive === false
    ? `debe ser mayor que ${issue.minimum} (dice ${quoted(issue.input)}).`
    : `debe ser ${issue.minimum} o más (dice ${quoted(issue.input)}).`;
}

function tooBig(issue: RawIssue & { origin: string; maximum: number | bigint; exact?: boolean }): string {
  const size = sizeOf(issue.input);
  const has = size === undefined ? '' : ` (tiene ${size})`;
  if (issue.origin === 'string')
    return `admite como máximo ${plural(issue.maximum, 'carácter', 'caracteres')}${has}: acórtalo.`;
  if (issue.origin === 'array')
    return issue.exact
      ? `debe tener exactamente ${plural(issue.maximum, 'elemento', 'elementos')}${has}.`
      : `admite como máximo ${plural(issue.maximum, 'elemento', 'elementos')}${has}.`;
  return `debe ser ${issue.maximum} o menos (dice ${quoted(issue.input)}).`;
}

const FORMATS: Record<string, string> = {
  email: 'no es un correo electrónico válido',
  url: 'no es una dirección web válida: debe empezar con https://',
};

/**
 * Zod's error map in Spanish, for the kinds of mistake a data file can hold.
 * A message written on the schema itself (a regex's, a refinement's) wins,
 * as zod gives it precedence; those are in Spanish too.
 */
export function spanishIssue(issue: RawIssue): string {
  const owner = issue.schema ?? (issue.inst as z.core.$ZodType | undefined);
  const label = owner ? z.globalRegistry.get(owner)?.description : undefined;
  switch (issue.code) {
    case 'invalid_type':
      return invalidType(issue as RawIssue & { expected: string }, label);
    case 'too_small':
      return tooSmall(issue as RawIssue & { origin: string; minimum: number });
    case 'too_big':
      return tooBig(issue as RawIssue & { origin: string; maximum: number });
    case 'invalid_format': {
      const format = (issue as { format?: string }).format ?? '';
      return `${FORMATS[format] ?? `no tiene el formato esperado${label ? ` (${label})` : ''}`} (dice ${quoted(issue.input)}).`;
    }
    case 'invalid_value': {
      const values = ((issue as { values?: unknown[] }).values ?? []).map(quoted).join(', ');
      return `debe ser uno de: ${values} (dice ${quoted(issue.input)}).`;
    }
    case 'unrecognized_keys': {
      const keys = (issue as { keys?: string[] }).keys ?? [];
      return keys.length === 1
        ? 'este campo no existe: revisa cómo está escrito (mayúsculas, acentos) o bórralo.'
        : `tiene campos que no existen (${keys.map((key) => `"${key}"`).join(', ')}): revisa cómo están escritos o bórralos.`;
    }
    default:
      return label ? `valor no válido (${label}).` : 'valor no válido.';
  }
}

/**
 * Checks `data` against `schema` and says what is wrong in Spanish. `entryOf`
 * names the entry of a list file from the first element of an issue's path.
 */
export function schemaProblems(
  schema: z.ZodType,
  data: unknown,
  file: string,
  entryOf?: (index: number) => string,
): DataProblem[] {
  const result = schema.safeParse(data, { error: spanishIssue, reportInput: true });
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    let path: PropertyKey[] = [...issue.path];
    let entry: string | undefined;
    if (entryOf && typeof path[0] === 'number') {
      entry = entryOf(path[0]);
      path = path.slice(1);
    }
    // A field that should not be there is named by its own path, not its parent's.
    if (issue.code === 'unrecognized_keys' && issue.keys.length === 1) path = [...path, issue.keys[0] as string];
    return { file, ...(entry ? { entry } : {}), field: path, message: issue.message };
  });
}

/** Parses a data file or throws a DataError with every problem in Spanish. */
export function parseData<T extends z.ZodType>(schema: T, data: unknown, file: string): z.output<T> {
  const problems = schemaProblems(schema, data, file);
  if (problems.length) throw new DataError(problems);
  return schema.parse(data);
}
