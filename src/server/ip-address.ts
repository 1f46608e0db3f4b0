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
