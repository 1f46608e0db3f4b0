import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import bcryptjs from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { checkPassword, hashPassword, inPasswordSlot, passwordCost } from './passwords.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../../../tests/fixtures/bcrypt-fallback');

describe('password hashing', () => {
  it("costs 12 everywhere but under NODE_ENV=test (4, for the suite's hundreds of sign-ins)", () => {
    expect(passwordCost({})).toBe(12);
    expect(passwordCost({ NODE_ENV: 'production' })).toBe(12);
    expect(passwordCost({ NODE_ENV: 'development' })).toBe(12);
    expect(passwordCost({ NODE_ENV: 'test' })).toBe(4);
  });

  it('writes bcrypt hashes that bcryptjs reads, and reads those bcryptjs wrote', async () => {
    const hash = await inPasswordSlot(() => hashPassword('contraseña-segura'));
    expect(hash).toMatch(/^\$2[ab]\$04\$/);
    expect(await bcryptjs.compare('contraseña-segura', hash)).toBe(true);
    const old = await bcryptjs.hash('guardada-antes', 4);
    expect(await inPasswordSlot(() => checkPassword('guardada-antes', old))).toBe(true);
    expect(await inPasswordSlot(() => checkPassword('otra', old))).toBe(false);
  });

  it('falls back to bcryptjs, same format and cost 12 outside tests, where the native binary is missing', async () => {
    const { NODE_ENV: _test, ...outsideTests } = process.env;
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', path.join(FIXTURE, 'register.mjs'), path.join(FIXTURE, 'check.ts')],
      { encoding: 'utf8', timeout: 60_000, env: outsideTests },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1) as string)).toEqual({
      prefix: '$2b$12$',
      right: true,
      wrong: false,
    });
    expect(stderr).toMatch(/"event":"bcrypt_native_unavailable"/);
  });
});
