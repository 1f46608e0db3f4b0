import bcrypt from 'bcryptjs';

const COST = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function checkPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

let decoy: Promise<string> | undefined;

/**
 * Checks a password against nothing, as slowly as a real check: a login with
 * an unknown e-mail takes as long as one with a wrong password.
 */
export async function checkAgainstDecoy(password: string): Promise<false> {
  decoy ??= bcrypt.hash('not-a-real-password', COST);
  await bcrypt.compare(password, await decoy);
  return false;
}
