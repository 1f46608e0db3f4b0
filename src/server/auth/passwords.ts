import { hash, verify } from '@node-rs/bcrypt';

/**
 * Password hashing: bcrypt (cost 12) in Rust on libuv's thread pool
 * (@node-rs/bcrypt), so a check never blocks the event loop, and at most
 * PASSWORD_SLOTS checks run at once per process. A few more wait their turn
 * in a short queue; past that the caller answers 429 (PasswordsBusy). Stored
 * hashes keep bcrypt's `$2a$`/`$2b$` format.
 */
const COST = 12;
const PASSWORD_SLOTS = 2;
const QUEUE_LENGTH = 8;
const QUEUE_WAIT_MS = 5_000;

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

/** Runs `work` in one of the few password slots, or throws PasswordsBusy when too many wait. */
async function inSlot<T>(work: () => Promise<T>): Promise<T> {
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

export function hashPassword(password: string): Promise<string> {
  return inSlot(() => hash(password, { cost: COST }));
}

export function checkPassword(password: string, storedHash: string): Promise<boolean> {
  return inSlot(() => verify(password, storedHash));
}

let decoy: Promise<string> | undefined;

/**
 * Checks a password against nothing, as slowly as a real check: a login with
 * an unknown e-mail takes as long as one with a wrong password.
 */
export async function checkAgainstDecoy(password: string): Promise<false> {
  decoy ??= hash('not-a-real-password', { cost: COST });
  await checkPassword(password, await decoy);
  return false;
}
