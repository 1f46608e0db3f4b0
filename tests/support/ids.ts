import { expect } from 'vitest';

/**
 * Asserts that `id` is an id in time order (UUID version 7, migration 0027:
 * xxxxxxxx-xxxx-7xxx-[89ab]xxx-xxxxxxxxxxxx) whose first 48 bits, the
 * milliseconds it was made, fall between `before` and `after` (a second's
 * leeway either side for the database's clock).
 */
export function expectTimeOrderedId(id: string, before: number, after: number): void {
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const made = Number.parseInt(id.replace('-', '').slice(0, 12), 16);
  expect(made).toBeGreaterThanOrEqual(before - 1000);
  expect(made).toBeLessThanOrEqual(after + 1000);
}
