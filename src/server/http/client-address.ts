import { limitSubject, normalizeAddress, type TrustProxy, UNKNOWN_ADDRESS } from '../ip-address.ts';

// Where the HTTP layer reads them (tests, the local server).
export { limitSubject, normalizeAddress, type TrustProxy, UNKNOWN_ADDRESS };

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
