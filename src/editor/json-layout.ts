import { applyEdits, type JSONPath, modify } from 'jsonc-parser';

/**
 * A data file as the editor saves it: the file as it is, with only the values
 * that changed written into it (jsonc-parser's edits), so its key order, its
 * one-line objects and its spacing stay, and one price changed is one line of
 * the diff. decap-cms writes `JSON.stringify(data, null, 2)` of its Immutable
 * copy, whose objects of more than eight keys come back in hash order: every
 * model's keys moved and every short object unfolded (issue #38, decision 0051).
 */

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `text` with the value at `path` made `next` (undefined removes it), changing only what differs. */
function edit(text: string, path: JSONPath, before: unknown, next: unknown): string {
  if (isObject(before) && isObject(next)) {
    let result = text;
    for (const key of Object.keys(before))
      if (!(key in next)) result = applyEdits(result, modify(result, [...path, key], undefined, FORMAT));
    for (const [key, value] of Object.entries(next)) result = edit(result, [...path, key], before[key], value);
    return result;
  }
  if (Array.isArray(before) && Array.isArray(next)) {
    let result = text;
    // Items past the new end go first, from the last, so the indexes before them stay.
    for (let index = before.length - 1; index >= next.length; index -= 1)
      result = applyEdits(result, modify(result, [...path, index], undefined, FORMAT));
    next.forEach((value, index) => {
      result =
        index < before.length
          ? edit(result, [...path, index], before[index], value)
          : applyEdits(result, modify(result, [...path, index], value, { ...FORMAT, isArrayInsertion: true }));
    });
    return result;
  }
  if (same(before, next)) return text;
  return applyEdits(text, modify(text, path, next, FORMAT));
}

/**
 * `data` written over `current` (the file's text before the save), or, when
 * there is no such text or it is not an object, decap-cms's own layout.
 */
export function keepLayout(current: string | undefined, data: unknown): string {
  let before: unknown;
  try {
    before = current === undefined ? undefined : JSON.parse(current);
  } catch {
    before = undefined;
  }
  if (!isObject(before) || !isObject(data) || current === undefined) return `${JSON.stringify(data, null, 2)}\n`;
  return edit(current, [], before, data);
}
