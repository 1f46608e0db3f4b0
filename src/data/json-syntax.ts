/**
 * A JSON syntax error said for someone who edits a data file by hand or
 * pastes text from a word processor: the line and column of the mistake
 * (where the comma is missing or left over, not where the parser gave up),
 * the lines around it with a mark under the spot, and what to do for the
 * usual mistakes (a comma left after the last element, a missing comma,
 * curly quotes, a text whose quotes do not close). Pure: the editor uses it
 * too.
 */

export interface JsonSyntaxError {
  line: number;
  column: number;
  /** What is wrong and what to do, in Spanish. */
  hint: string;
  /** The lines around the mistake, numbered, with ^ under the column. */
  excerpt: string;
}

const CURLY_QUOTES = /[“”„‟‘’‚‛«»]/;
const WHITESPACE = /\s/;

/** Where the parser stopped: V8 says "at position N"; "Unexpected token" says only the token. */
function stopPosition(text: string, message: string): number {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  if (/end of JSON input/i.test(message)) return text.length;
  // "Unexpected token ']'" without a position: a closing bracket after a comma.
  const closer = /Unexpected token '([}\]])'/.exec(message)?.[1];
  // Otherwise the first character outside a string that JSON does not allow.
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"' || char === '\n') inString = false;
    } else if (char === '"') inString = true;
    else if (closer && (char === '}' || char === ']') && previousSolid(text, index)?.char === ',') return index;
    else if (!/[\s{}[\],:0-9eE+.\-truefalsn]/.test(char)) return index;
  }
  return text.length;
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** The last character before `position` that is not blank, and where it is. */
function previousSolid(text: string, position: number): { char: string; index: number } | undefined {
  for (let index = position - 1; index >= 0; index--) {
    const char = text[index] as string;
    if (!WHITESPACE.test(char)) return { char, index };
  }
  return undefined;
}

function excerpt(text: string, line: number, column: number): string {
  const lines = text.split('\n');
  const first = Math.max(1, line - 1);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let number = first; number <= last; number++) {
    const marker = number === line ? '>' : ' ';
    out.push(`${marker} ${String(number).padStart(width)} | ${(lines[number - 1] ?? '').replaceAll('\t', ' ')}`);
    if (number === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return out.join('\n');
}

/** Line, column, hint and excerpt of the syntax error `error` that JSON.parse threw on `text`. */
export function jsonSyntaxError(text: string, error: unknown): JsonSyntaxError {
  const message = error instanceof Error ? error.message : String(error);
  const stop = Math.min(stopPosition(text, message), text.length);
  const at = text[stop] ?? '';
  const before = previousSolid(text, stop);
  let spot = stop;
  let hint: string;

  if (CURLY_QUOTES.test(at)) {
    hint =
      'hay comillas tipográficas (“ ” o ‘ ’), de las que pone un procesador de textos al pegar: cámbialas por comillas rectas (").';
  } else if ((at === '}' || at === ']') && before?.char === ',') {
    spot = before.index;
    hint = `sobra esta coma: después del último ${at === '}' ? 'campo de un bloque { }' : 'elemento de una lista [ ]'} no va coma. Bórrala.`;
  } else if (before && /["}\]0-9el]/.test(before.char) && /["{[0-9-tfn]/.test(at)) {
    spot = before.index + 1;
    hint = 'falta una coma (,) aquí: entre dos campos o dos elementos de una lista va una coma.';
  } else if (/Unterminated string|Bad control character/i.test(message)) {
    const opening = text.lastIndexOf('"', stop - 1);
    spot = opening >= 0 ? opening : stop;
    hint = CURLY_QUOTES.test(text.slice(spot, stop))
      ? 'este texto cierra con una comilla tipográfica (” o ’), de las que pone un procesador de textos: cámbiala por una comilla recta (").'
      : 'este texto no cierra sus comillas: cada texto empieza y termina con comillas rectas (") en la misma línea.';
  } else if (stop >= text.length) {
    hint = 'el archivo termina antes de tiempo: falta cerrar algún { o [ (cada { con su } y cada [ con su ]).';
  } else {
    hint =
      'aquí hay algo que no es JSON válido: revisa que no falte ni sobre una coma, que cada texto vaya entre comillas rectas (") y que cada { y [ se cierre.';
  }
  const { line, column } = lineAndColumn(text, spot);
  return { line, column, hint, excerpt: excerpt(text, line, column) };
}
