import { availableParallelism } from 'node:os';
import { logJson } from '../log.ts';

/**
 * Password hashing: bcrypt (cost 12) in Rust on libuv's thread pool
 * (@node-rs/bcrypt), so a check never blocks the event loop, and at most
 * PASSWORD_SLOTS checks run at once per process, leaving a core to serve
 * everything else. A few more wait their turn in a short queue; past that the
 * caller answers 429 (PasswordsBusy) before touching the database. Stored
 * hashes keep bcrypt's `$2a$`/`$2b$` format. Where no prebuilt binary exists
 * for the platform (a lockfile made on Linux, installed on a Mac), bcryptjs
 * takes over, slower but the same format, and the log says so.
 */
const COST = passwordCost();
const PASSWORD_SLOTS = Math.max(1, Math.min(4, availableParallelism() - 1));
const QUEUE_LENGTH = 64;
const QUEUE_WAIT_MS = 10_000;

/**
 * bcrypt's cost: 12 (about 250 ms a check on our 2-core machines), except
 * under NODE_ENV=test, where hundreds of sign-ins prove locks, limits and
 * sessions rather than the hash's cost: 4 there (3 ms). `npm run bench:auth`
 * measures cost 12; the fallback's test proves 12 outside tests.
 */
export function passwordCost(env: NodeJS.ProcessEnv = process.env): number {
  return env.NODE_ENV === 'test' ? 4 : 12;
}

/** What a visitor reads when PasswordsBusy is thrown (429). */
export const PASSWORDS_BUSY =
  'Estamos verificando muchos inicios de sesión a la vez. Espera unos segundos e inténtalo de nuevo.';

export class PasswordsBusy extends Error {
  override name = 'PasswordsBusy';
}

let active = 0;
const waiting: { start(): void; timer: NodeJS.Timeout }[] = [];

function release(): void {
  const next = waiting.shift();
  if (next) {
    clearTimeout(next.timer);
    next.start();
  } else {
    active--;
  }
}

/**
 * Runs `work` (which compares or hashes passwords) in one of the few password
 * slots, or throws PasswordsBusy when too many already wait.
 */
export async function inPasswordSlot<T>(work: () => Promise<T>): Promise<T> {
  if (active < PASSWORD_SLOTS) {
    active++;
  } else {
    if (waiting.length >= QUEUE_LENGTH) throw new PasswordsBusy();
    await new Promise<void>((resolve, reject) => {
      const entry = {
        start: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(new PasswordsBusy());
        }, QUEUE_WAIT_MS),
      };
      waiting.push(entry);
    });
  }
  try {
    return await work();
  } finally {
    release();
  }
}

interface Bcrypt {
  hash(password: string): Promise<string>;
  verify(password: string, storedHash: string): Promise<boolean>;
}

let engine: Promise<Bcrypt> | undefined;
function bcrypt(): Promise<Bcrypt> {
  engine ??= import('@node-rs/bcrypt').then(
    (native) => ({ hash: (password) => native.hash(password, { cost: COST }), verify: native.verify }),
    async (error: Error) => {
      logJson('warn', { event: 'bcrypt_native_unavailable', error: error.message });
      const { default: bcryptjs } = await import('bcryptjs');
      return { hash: (password) => bcryptjs.hash(password, COST), verify: bcryptjs.compare };
    },
  );
  return engine;
}

/** Hashes a new password (call inside inPasswordSlot). */
export async function hashPassword(password: string): Promise<string> {
  return (await bcrypt()).hash(password);
}

/** Compares a password with a stored hash (call inside inPasswordSlot). */
export async function checkPassword(password: string, storedHash: string): Promise<boolean> {
  return (await bcrypt()).verify(password, storedHash);
}

let decoy: Promise<string> | undefined;

/**
 * Checks a password against nothing, as slowly as a real check: a login with
 * an unknown e-mail takes as long as one with a wrong password.
 */
export async function checkAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword('not-a-real-password');
  await checkPassword(password, await decoy);
  return false;
}
