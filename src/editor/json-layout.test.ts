import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fromJS, type Map as ImmutableMap } from 'immutable';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../data/content-check.ts';
import { DATA_FILES } from '../data/rules.ts';
import { keepLayout } from './json-layout.ts';

const file = (name: keyof typeof DATA_FILES) => readFileSync(path.join(PROJECT_ROOT, DATA_FILES[name]), 'utf8');

type Held = ImmutableMap<string, unknown>;

/** The data as decap-cms hands it to a format's toFile: through its Immutable copy (decap-cms-core's own), then back. */
function asDecapHolds(text: string, change: (data: Held) => Held): unknown {
  return change(fromJS(JSON.parse(text)) as Held).toJS();
}

/** The lines of `after` that are not the same line of `before` (a diff's changed lines, for a same-length file). */
function changedLines(before: string, after: string): string[] {
  const old = before.split('\n');
  return after.split('\n').filter((line, index) => line !== old[index]);
}

describe('a data file saved by the editor', () => {
  it('changes one line for one price: key order, one-line objects and spacing stay', () => {
    const text = file('models');
    const meridian = (JSON.parse(text) as { models: { id: string }[] }).models.findIndex(
      (model) => model.id === 'meridian',
    );
    const data = asDecapHolds(text, (models) => models.setIn(['models', meridian, 'priceFromMxn'], 299000));
    // What decap-cms's JSON format wrote: every model's keys moved.
    expect(changedLines(text, `${JSON.stringify(data, null, 2)}\n`).length).toBeGreaterThan(20);
    const saved = keepLayout(text, data);
    expect(changedLines(text, saved)).toEqual(['      "priceFromMxn": 299000,']);
    expect(saved.split('\n')).toHaveLength(text.split('\n').length);
    expect(JSON.parse(saved)).toEqual(data);
  });

  it('keeps the one-line objects of a file written so', () => {
    const text = file('site');
    const data = asDecapHolds(text, (site) => site.setIn(['phone', 'display'], '999 555 0199'));
    const saved = keepLayout(text, data);
    expect(changedLines(text, saved)).toEqual(['  "phone": { "display": "999 555 0199", "e164": "+529995550123" },']);
    expect(JSON.parse(saved)).toEqual(data);
  });

  it('adds and removes list items and keys where they are, the rest untouched', () => {
    const text = file('steps');
    const parsed = JSON.parse(text) as { steps: Record<string, unknown>[] };
    const added = { ...parsed.steps[0], title: 'Un paso más' };
    const longer = keepLayout(text, { steps: [...parsed.steps, added] });
    expect(JSON.parse(longer)).toEqual({ steps: [...parsed.steps, added] });
    // The file's lines, up to the last item's closing brace (which gets its comma), stay as they were.
    const kept = text.split('\n').slice(0, -4);
    expect(longer.split('\n').slice(0, kept.length)).toEqual(kept);
    const shorter = { steps: parsed.steps.slice(0, -1).map(({ title: _, ...step }) => step) };
    expect(JSON.parse(keepLayout(text, shorter))).toEqual(shorter);
  });

  it("falls back to decap-cms's own layout without a file to keep", () => {
    expect(keepLayout(undefined, { a: 1 })).toBe('{\n  "a": 1\n}\n');
    expect(keepLayout('no es JSON', { a: 1 })).toBe('{\n  "a": 1\n}\n');
  });
});
