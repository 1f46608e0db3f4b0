/**
 * Free text the team types into the panel (notes, searches, names), checked
 * as the lead forms check a visitor's (src/lib/forms/fields.ts): bidirectional
 * controls are removed, control characters and broken Unicode are refused with
 * a Spanish message. PostgreSQL cannot store a NUL at all: unchecked, it was a
 * 503 "base de datos" (issue #23, item 9). Browser-safe: zod's mini build.
 */
import * as z from 'zod/mini';
import { withoutBidiControls } from '../bidi.ts';

export const INVALID_CHARACTERS = 'Contiene caracteres no válidos.';

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** A note may have several lines (and tabs); every other control character is refused. */
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Bidirectional controls reorder what the team reads in the panel and CSV (src/lib/bidi.ts). */
const withoutBidi = z.overwrite(withoutBidiControls);

/** One line of text (a search, a name): first in a string's `.check(…)`, before trimming and lengths. */
export const singleLineChecks = [
  withoutBidi,
  z.refine<string>((value) => value.isWellFormed() && !CONTROL_CHARACTERS.test(value), INVALID_CHARACTERS),
] as const;

/** Text of several lines (a note): line breaks and tabs allowed. */
export const multiLineChecks = [
  withoutBidi,
  z.refine<string>((value) => value.isWellFormed() && !CONTROL_CHARACTERS_BUT_LINES.test(value), INVALID_CHARACTERS),
] as const;
