/**
 * The visitor's outbox (issue #14): a request that could not reach us for a
 * network reason waits in this browser, with its idempotency key, until it
 * is sent (stored exactly once: the key). At most OUTBOX_MAX requests, for
 * OUTBOX_DAYS days; the privacy notice says so. Small: every page reads it.
 */
const KEY = 'leadOutbox';
export const OUTBOX_MAX = 5;
export const OUTBOX_DAYS = 7;

export interface OutboxEntry {
  /** The idempotency key of the first attempt. */
  key: string;
  endpoint: string;
  /** The JSON sent, attribution included. */
  body: string;
  savedAt: number;
}

const fresh = (entry: OutboxEntry, now: number) => now - entry.savedAt < OUTBOX_DAYS * 86_400_000;

/** The requests still waiting (expired ones are forgotten). */
export function readOutbox(now = Date.now()): OutboxEntry[] {
  try {
    const entries = JSON.parse(localStorage.getItem(KEY) ?? '[]') as OutboxEntry[];
    return Array.isArray(entries) ? entries.filter((entry) => entry && fresh(entry, now)) : [];
  } catch {
    return [];
  }
}

function write(entries: OutboxEntry[]): void {
  try {
    if (entries.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // Storage off or full: nothing can wait; the visitor was told the request is pending.
  }
}

/** Keeps a request to send later (the same key replaces its older copy; the oldest go past the limit). */
export function keepInOutbox(entry: OutboxEntry): void {
  write([...readOutbox().filter((kept) => kept.key !== entry.key), entry].slice(-OUTBOX_MAX));
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

/** A failure worth trying again later: no answer at all, or a gateway that could not reach us. */
export const isNetworkFailure = (status: number): boolean =>
  status === 0 || status === 502 || status === 503 || status === 504;
