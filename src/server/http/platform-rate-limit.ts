import type { Config } from '@netlify/functions';
import { logJson } from '../log.ts';
import { json } from './responses.ts';

/** A function's `config.rateLimit`, as Netlify reads it. */
export type RateLimitConfig = NonNullable<Config['rateLimit']>;

/** What a visitor past a function's limit reads (the forms show `error`). */
export const PLATFORM_RATE_LIMITED = 'Demasiadas solicitudes. Espera un momento e inténtalo de nuevo.';

/** Addresses followed at once; past it the least recently seen is forgotten (see `hit`). */
const DEFAULT_MAX_KEYS = 50_000;

interface Entry {
  /** When each request still inside the window was admitted (ms), oldest first: at most windowLimit of them. */
  admitted: number[];
  /** When the newest admitted request leaves the window: after that the entry holds nothing. */
  expiresAt: number;
}

export interface PlatformRateLimiterOptions {
  /** The clock, in milliseconds (tests inject their own). */
  now?: () => number;
  maxKeys?: number;
}

/**
 * Netlify's rate limit for functions (`config.rateLimit`), applied by the
 * local server, which Netlify's edge never sits in front of: at most
 * `windowLimit` requests to one function in any `windowSize` seconds
 * (a sliding window, Netlify's only algorithm), counted per client address
 * when `aggregateBy` names `ip` (and per site for `domain`: this server is one
 * site). Requests past the limit are refused and not counted, as a block does
 * not reach the function.
 *
 * Kept in this process's memory: the local server is one process, and a
 * restart forgetting a minute of counts is harmless. Memory is bounded: each
 * key holds at most windowLimit times, keys whose window is over are dropped
 * as requests arrive, and past `maxKeys` live keys the least recently seen
 * one is forgotten (only an attacker with that many addresses gets there, and
 * they are already past any per-address limit).
 */
export class PlatformRateLimiter {
  readonly #now: () => number;
  readonly #maxKeys: number;
  /** In order of last request, least recent first (a key is moved to the end on each request). */
  readonly #entries = new Map<string, Entry>();

  constructor({ now = Date.now, maxKeys = DEFAULT_MAX_KEYS }: PlatformRateLimiterOptions = {}) {
    this.#now = now;
    this.#maxKeys = maxKeys;
  }

  /** Keys followed right now (for tests of the memory bound). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Counts one request of `key` under `rule`: 0 when it is admitted, otherwise
   * the whole seconds until the oldest counted request leaves the window.
   */
  hit(key: string, rule: { windowLimit: number; windowSize: number }): number {
    const now = this.#now();
    const windowMs = rule.windowSize * 1000;
    this.#pruneExpired(now);
    const entry = this.#entries.get(key) ?? { admitted: [], expiresAt: 0 };
    this.#entries.delete(key);
    while (entry.admitted.length > 0 && (entry.admitted[0] as number) <= now - windowMs) entry.admitted.shift();
    let retryAfter = 0;
    if (entry.admitted.length < rule.windowLimit) {
      entry.admitted.push(now);
      entry.expiresAt = now + windowMs;
    } else {
      retryAfter = Math.max(1, Math.ceil(((entry.admitted[0] as number) + windowMs - now) / 1000));
    }
    if (entry.admitted.length > 0) {
      if (this.#entries.size >= this.#maxKeys) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(key, entry);
    }
    return retryAfter;
  }

  /** Drops the least recently seen keys while their window is over (amortised: each key is dropped once). */
  #pruneExpired(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt > now) return;
      this.#entries.delete(key);
    }
  }
}

/** Whether a function's rule is counted per client address (else one count for the whole site). */
function aggregatesByIp(rule: RateLimitConfig): boolean {
  // Netlify's build reads only an array; anything else means `['domain']`.
  return Array.isArray(rule.aggregateBy) && rule.aggregateBy.includes('ip');
}

/**
 * The 429 to answer when a request of `functionName` from `ip` is past its
 * rule, or null to let the handler run. A rule the local server cannot apply
 * (a rewrite) is refused by `checkRateLimitConfig` at start.
 */
export function platformRateLimited(
  limiter: PlatformRateLimiter,
  functionName: string,
  rule: RateLimitConfig | undefined,
  ip: string,
): Response | null {
  if (!rule) return null;
  const key = aggregatesByIp(rule) ? `${functionName} ${ip}` : functionName;
  const retryAfter = limiter.hit(key, rule);
  if (retryAfter === 0) return null;
  // The function never runs, so its own log line is not written: this one stands for it.
  logJson('warn', { event: 'platform_rate_limited', function: functionName, status: 429, retryAfter });
  return json(429, { error: PLATFORM_RATE_LIMITED }, { 'Retry-After': String(retryAfter) });
}

/**
 * A function's `config.rateLimit` as the local server can apply it, or an
 * error naming the function: a limit that is silently not applied would be
 * worse than a server that does not start.
 */
export function checkRateLimitConfig(
  functionName: string,
  rule: RateLimitConfig | undefined,
): RateLimitConfig | undefined {
  if (!rule) return undefined;
  const whole = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
  if (!whole(rule.windowLimit) || !whole(rule.windowSize)) {
    throw new Error(`netlify/functions/${functionName}.ts: rateLimit needs whole windowLimit and windowSize above 0`);
  }
  if (rule.action === 'rewrite' || rule.to) {
    throw new Error(`netlify/functions/${functionName}.ts: the local server cannot apply a rateLimit rewrite`);
  }
  return rule;
}
