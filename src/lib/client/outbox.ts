/**
 * The visitor's outbox (issue #14): a request that could not reach us (no
 * answer, a timeout, or an answer that asks to try again) waits in this
 * browser, with its idempotency key, until it is sent (stored exactly once:
 * the key). At most OUTBOX_MAX requests, for OUTBOX_DAYS days; the privacy
 * notice says so. Nothing is ever pushed out to make room: a request that
 * cannot be kept is said so to the visitor (issue #25). Small: every page
 * reads it.
 */
import type { Toast } from './toast.ts';

const KEY = 'leadOutbox';
export const OUTBOX_MAX = 5;
export const OUTBOX_DAYS = 7;
export const OUTBOX_MAX_AGE_MS = OUTBOX_DAYS * 86_400_000;

export interface OutboxEntry {
  /** The idempotency key of the first attempt. */
  key: string;
  endpoint: string;
  /** The JSON sent, attribution and the consent taken at the press included. */
  body: string;
  savedAt: number;
  /** Not sent again before this time (ms): the server's Retry-After. */
  notBefore?: number;
  /** What the visitor reads when it goes through later, when the form has words of its own for it. */
  delivered?: Toast;
}

const fresh = (entry: OutboxEntry, now: number) => now - entry.savedAt < OUTBOX_MAX_AGE_MS;

/** The requests still waiting; expired ones are forgotten, and removed from the browser (the notice says so). */
export function readOutbox(now = Date.now()): OutboxEntry[] {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '[]') as OutboxEntry[];
    if (!Array.isArray(stored)) return [];
    const entries = stored.filter((entry) => entry && fresh(entry, now));
    if (entries.length < stored.length) write(entries);
    return entries;
  } catch {
    return [];
  }
}

function write(entries: OutboxEntry[]): boolean {
  try {
    if (entries.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(entries));
    return true;
  } catch {
    return false; // storage off or full
  }
}

/**
 * What became of a request to keep: `kept`; `full` (OUTBOX_MAX others wait,
 * none is dropped for it); `unavailable` (the browser does not let us store it).
 */
export type KeepResult = 'kept' | 'full' | 'unavailable';

/** Keeps a request to send later; the same key replaces its older copy. */
export function keepInOutbox(entry: OutboxEntry): KeepResult {
  const others = readOutbox().filter((kept) => kept.key !== entry.key);
  if (others.length >= OUTBOX_MAX) return 'full';
  return write([...others, entry]) ? 'kept' : 'unavailable';
}

/** Changes a waiting request (e.g. its `notBefore`); nothing when it no longer waits. */
export function updateInOutbox(key: string, change: Partial<OutboxEntry>): void {
  const entries = readOutbox();
  if (entries.some((entry) => entry.key === key)) {
    write(entries.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));
  }
}

export function dropFromOutbox(key: string): void {
  write(readOutbox().filter((entry) => entry.key !== key));
}

/**
 * Asks this page to send its outbox now. The sender lives in the page script
 * (src/scripts/site.ts), one per page, and is already there without signal.
 */
export const OUTBOX_SEND_EVENT = 'outbox:send';
export const requestOutboxSend = (): void => {
  window.dispatchEvent(new Event(OUTBOX_SEND_EVENT));
};

/**
 * A failure worth trying again later (issue #25): no answer at all (0, a
 * timeout included), 408, 429 (after its Retry-After) and any 5xx. Any other
 * 4xx is the request's own fault and is never retried.
 */
export const isRetriable = (status: number): boolean =>
  status === 0 || status === 408 || status === 429 || status >= 500;

/** When the next attempt may go: after `pauseMs` for the first entry due, never before an entry's Retry-After. */
export function nextAttemptAt(entries: readonly OutboxEntry[], now: number, pauseMs: number): number | null {
  if (entries.length === 0) return null;
  return Math.min(...entries.map((entry) => Math.max(now + pauseMs, entry.notBefore ?? 0)));
}

/** A Retry-After header (seconds or an HTTP date) as milliseconds from now, at most the outbox's age. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), OUTBOX_MAX_AGE_MS) : undefined;
}
