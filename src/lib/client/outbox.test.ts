import { beforeEach, describe, expect, it } from 'vitest';
import {
  dropFromOutbox,
  isRetriable,
  keepInOutbox,
  nextAttemptAt,
  OUTBOX_MAX,
  readOutbox,
  retryAfterMs,
  updateInOutbox,
} from './outbox.ts';

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

  it('keeps one copy per key, and forgets after 7 days (removing it from the browser)', () => {
    expect(keepInOutbox(entry('a'))).toBe('kept');
    expect(keepInOutbox(entry('a'))).toBe('kept');
    expect(readOutbox().map((kept) => kept.key)).toEqual(['a']);
    localStorage.setItem('leadOutbox', JSON.stringify([entry('old', Date.now() - 7 * 86_400_000 - 1), entry('a')]));
    expect(readOutbox().map((kept) => kept.key)).toEqual(['a']);
    expect(localStorage.getItem('leadOutbox')).not.toContain('"old"');
    dropFromOutbox('a');
    expect(localStorage.getItem('leadOutbox')).toBeNull();
  });

  it('never drops a waiting request to make room: the one past OUTBOX_MAX is refused as full', () => {
    for (const key of ['a', 'b', 'c', 'd', 'e']) expect(keepInOutbox(entry(key))).toBe('kept');
    expect(keepInOutbox(entry('f'))).toBe('full');
    expect(readOutbox().map((kept) => kept.key)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(readOutbox()).toHaveLength(OUTBOX_MAX);
    // The same request again still replaces its own copy.
    expect(keepInOutbox(entry('c'))).toBe('kept');
    dropFromOutbox('b');
    expect(keepInOutbox(entry('f'))).toBe('kept');
  });

  it('says so when the browser does not let it store anything', () => {
    localStorage.setItem('leadOutbox', '{no es json');
    expect(readOutbox()).toEqual([]);
    (globalThis as { localStorage?: unknown }).localStorage = undefined;
    expect(readOutbox()).toEqual([]);
    expect(keepInOutbox(entry('x'))).toBe('unavailable');
    (globalThis as { localStorage?: unknown }).localStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('lleno', 'QuotaExceededError');
      },
    };
    expect(keepInOutbox(entry('x'))).toBe('unavailable');
  });

  it('retries no answer, 408, 429 and every 5xx; never another 4xx', () => {
    expect([0, 408, 429, 500, 502, 503, 504, 599].every(isRetriable)).toBe(true);
    expect([200, 201, 400, 401, 403, 404, 409, 413, 422].some(isRetriable)).toBe(false);
  });

  it('waits for the Retry-After of an entry, and for the pause for the rest', () => {
    const now = 1_000_000;
    expect(nextAttemptAt([], now, 5_000)).toBeNull();
    expect(nextAttemptAt([{ ...entry('a'), notBefore: now + 60_000 }], now, 5_000)).toBe(now + 60_000);
    expect(nextAttemptAt([{ ...entry('a'), notBefore: now + 60_000 }, entry('b')], now, 5_000)).toBe(now + 5_000);
    expect(nextAttemptAt([{ ...entry('a'), notBefore: now + 1_000 }], now, 5_000)).toBe(now + 5_000);
    keepInOutbox(entry('a'));
    updateInOutbox('a', { notBefore: 42 });
    updateInOutbox('gone', { notBefore: 42 });
    expect(readOutbox().map((kept) => [kept.key, kept.notBefore])).toEqual([['a', 42]]);
  });

  it('reads Retry-After in seconds or as a date, bounded by the outbox age', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 12:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('99999999', now)).toBe(7 * 86_400_000);
    expect(retryAfterMs('pronto', now)).toBeUndefined();
  });
});
