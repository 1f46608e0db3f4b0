import { beforeEach, describe, expect, it } from 'vitest';
import { dropFromOutbox, isNetworkFailure, keepInOutbox, OUTBOX_MAX, readOutbox } from './outbox.ts';

/** The browser's localStorage, as far as the outbox uses it. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const entry = (key: string, savedAt = Date.now()) => ({ key, endpoint: '/api/quick-quotes', body: '{}', savedAt });

describe('the outbox', () => {
  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });

  it('keeps one copy per key, at most OUTBOX_MAX (the oldest go), and forgets after 7 days', () => {
    keepInOutbox(entry('a'));
    keepInOutbox(entry('a'));
    expect(readOutbox().map((kept) => kept.key)).toEqual(['a']);
    for (const key of ['b', 'c', 'd', 'e', 'f']) keepInOutbox(entry(key));
    expect(readOutbox().map((kept) => kept.key)).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(readOutbox()).toHaveLength(OUTBOX_MAX);
    keepInOutbox(entry('old', Date.now() - 7 * 86_400_000 - 1));
    expect(readOutbox().map((kept) => kept.key)).not.toContain('old');
    dropFromOutbox('b');
    expect(readOutbox().map((kept) => kept.key)).toEqual(['c', 'd', 'e', 'f']);
  });

  it('reads a broken or foreign value as empty, and works without storage at all', () => {
    localStorage.setItem('leadOutbox', '{no es json');
    expect(readOutbox()).toEqual([]);
    (globalThis as { localStorage?: unknown }).localStorage = undefined;
    expect(readOutbox()).toEqual([]);
    expect(() => keepInOutbox(entry('x'))).not.toThrow();
  });

  it('waits only for network failures: none, 502, 503, 504', () => {
    expect([0, 502, 503, 504].every(isNetworkFailure)).toBe(true);
    expect([200, 400, 404, 409, 422, 429, 500].some(isNetworkFailure)).toBe(false);
  });
});
