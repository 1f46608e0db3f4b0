import { createHash, randomBytes } from 'node:crypto';

/** A one-time link's secret (32 random bytes, base64url: 43 characters) and the hash we store. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** SHA-256 (hex) of a token: the database never holds a usable link. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
