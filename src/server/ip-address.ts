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

/** An IPv4 address's dotted quad as two 16-bit groups (the tail of "64:ff9b::192.0.2.1"). */
function quadGroups(quad: string): number[] {
  const [a = 0, b = 0, c = 0, d = 0] = quad.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

/**
 * What a per-IP limit counts (issue #38): an IPv4 address as it is, an IPv6
 * address by its /64 network ("2001:db8:1:2::/64"). A subscriber, a phone on
 * a mobile network or a cloud host gets a whole /64 and may take any of its
 * 2^64 addresses, so counting each address alone is no limit at all.
 * `address` is normalizeAddress()'s (valid, canonical) or UNKNOWN_ADDRESS.
 */
export function limitSubject(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => (group.includes('.') ? quadGroups(group) : [parseInt(group, 16)]));
  const first = groups(head);
  const all =
    tail === undefined ? first : [...first, ...Array(8 - first.length - groups(tail).length).fill(0), ...groups(tail)];
  return `${all
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
