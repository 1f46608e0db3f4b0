import { isIP } from 'node:net';

/**
 * Which reverse proxies may tell us the client's address (`TRUST_PROXY`):
 * none by default, `loopback` (nginx or Caddy on the same host), or a list of
 * exact addresses.
 */
export type TrustProxy = false | 'loopback' | readonly string[];

/** Stands for "no usable address": one shared bucket for the limits, never a visitor's text. */
export const UNKNOWN_ADDRESS = '0.0.0.0';

/**
 * The address in `value` in canonical form (IPv4-mapped IPv6 as IPv4, no zone
 * index), or null when it is not a syntactically valid IP address.
 */
export function normalizeAddress(value: string | null | undefined): string | null {
  if (!value) return null;
  let address = value.trim();
  if (address.length > 64) return null;
  address = address.replace(/%[\w.-]+$/, '');
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) address = address.slice(7);
  const version = isIP(address);
  if (version === 4) return address;
  if (version === 6) return address.toLowerCase();
  return null;
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.');
}

function trusted(trust: TrustProxy, address: string): boolean {
  if (trust === false) return false;
  if (trust === 'loopback') return isLoopback(address);
  return trust.includes(address);
}

/**
 * The client of a request that reached us from `peer` (the TCP peer). When the
 * peer is a trusted proxy, X-Forwarded-For is read from the right: the first
 * address that is not a trusted proxy is the client. An entry that is not a
 * valid IP address stops the walk, and the last trusted hop is the answer:
 * nothing a client writes that is not an address is ever used as one.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | null, trust: TrustProxy): string {
  let client = normalizeAddress(peer);
  if (!client) return UNKNOWN_ADDRESS;
  if (!trusted(trust, client) || !forwardedFor) return client;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = normalizeAddress(hops[index]);
    if (!hop) return client;
    client = hop;
    if (!trusted(trust, hop)) return hop;
  }
  return client;
}

/** The client address a function was given (Netlify's `context.ip`, or the local server's), checked again. */
export function requestAddress(context: { ip?: string | null }): string {
  return normalizeAddress(context.ip) ?? UNKNOWN_ADDRESS;
}
