import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, getConfig } from '../config.ts';
import { dataRoot } from '../data-root.ts';

let cached: Uint8Array | undefined;

/**
 * The key that signs administrators' session tokens: `JWT_SECRET`, or for a
 * local run a random one kept in `.data/jwt-secret`. Production refuses to
 * run without `JWT_SECRET`.
 */
export function sessionSecret(): Uint8Array {
  cached ??= new TextEncoder().encode(readSecret());
  return cached;
}

function readSecret(): string {
  const config = getConfig();
  if (config.jwtSecret) return config.jwtSecret;
  if (config.production) {
    throw new ConfigError(
      'JWT_SECRET is not set: production needs a secret of at least 32 bytes (openssl rand -base64 48).',
    );
  }
  const file = path.join(dataRoot(config), 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return readFileSync(file, 'utf8').trim();
  }
}
