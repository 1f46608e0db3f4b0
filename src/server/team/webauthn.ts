import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { site } from '../../data/site.ts';
import type { PasskeyView } from '../../lib/admin/team.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { SessionUser } from '../auth/users.ts';
import type { Database, Queryable } from '../db/database.ts';

/** The relying party is the site as the browser sees it: its host name and origin. */
const party = (url: URL) => ({ rpID: url.hostname, origin: url.origin });

/** What a ceremony's answer must match: the challenge it took and this party (user verification preferred, not required). */
const expected = (url: URL, challenge: string) => ({
  expectedChallenge: challenge,
  expectedOrigin: party(url).origin,
  expectedRPID: party(url).rpID,
  requireUserVerification: false,
});

async function saveChallenge(
  db: Queryable,
  purpose: 'register' | 'authenticate',
  challenge: string,
  userId: string | null,
): Promise<string> {
  await db.query(`DELETE FROM webauthn_challenges WHERE expires_at < now()`);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO webauthn_challenges (user_id, purpose, challenge) VALUES ($1, $2, $3) RETURNING id`,
    [userId, purpose, challenge],
  );
  return (rows[0] as { id: string }).id;
}

/** Takes a challenge once: it is deleted as it is read. */
async function takeChallenge(
  db: Queryable,
  id: string,
  purpose: 'register' | 'authenticate',
  userId: string | null,
): Promise<string | null> {
  const { rows } = await db.query<{ challenge: string }>(
    `DELETE FROM webauthn_challenges
     WHERE id = $1 AND purpose = $2 AND user_id IS NOT DISTINCT FROM $3 AND expires_at > now()
     RETURNING challenge`,
    [id, purpose, userId],
  );
  return rows[0]?.challenge ?? null;
}

export async function listPasskeys(db: Queryable, userId: string): Promise<PasskeyView[]> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date; last_used_at: Date | null }>(
    'SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = $1 ORDER BY created_at',
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  }));
}

/** Options for adding a passkey to the signed-in member's account. */
export async function registrationOptions(db: Queryable, user: SessionUser, url: URL) {
  const { rows } = await db.query<{ id: string; transports: string[] }>(
    'SELECT id, transports FROM passkeys WHERE user_id = $1',
    [user.id],
  );
  const options = await generateRegistrationOptions({
    rpName: `${site.brand.name} · Panel`,
    rpID: party(url).rpID,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: rows.map((row) => ({
      id: row.id,
      transports: row.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const challengeId = await saveChallenge(db, 'register', options.challenge, user.id);
  return { challengeId, options };
}

/**
 * Verifies and stores a new passkey: 'unverified' when the browser's answer
 * does not check out, 'duplicate' when its credential is already registered
 * (to this member or another; nothing is written).
 */
export async function registerPasskey(
  db: Database,
  user: SessionUser,
  url: URL,
  input: { challengeId: string; response: RegistrationResponseJSON; name: string },
  actor: Actor,
): Promise<'added' | 'unverified' | 'duplicate'> {
  const challenge = await takeChallenge(db, input.challengeId, 'register', user.id);
  if (!challenge) return 'unverified';
  const verification = await verifyRegistrationResponse({
    response: input.response,
    ...expected(url, challenge),
  }).catch(() => null);
  const credential = verification?.verified ? verification.registrationInfo?.credential : undefined;
  // The credential id is the authenticator's, unchecked in length by the library: one the table cannot hold
  // (16 to 1,400 base64url characters) is no credential of a real authenticator.
  if (!credential || !/^[A-Za-z0-9_-]{16,1400}$/.test(credential.id)) return 'unverified';
  return db.transaction(async (tx): Promise<'added' | 'duplicate'> => {
    // A credential already registered (to this member or another) is refused whole, races included.
    const { rows } = await tx.query(
      `INSERT INTO passkeys (id, user_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        credential.id,
        user.id,
        Buffer.from(credential.publicKey),
        credential.counter,
        credential.transports ?? [],
        input.name,
      ],
    );
    if (!rows[0]) return 'duplicate';
    await recordActivity(tx, {
      actor,
      kind: 'passkey_added',
      summary: `${actor.name} agregó la llave de acceso «${input.name}»`,
    });
    return 'added';
  });
}

export async function removePasskey(db: Database, userId: string, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      'DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING name',
      [id, userId],
    );
    if (!rows[0]) return false;
    await recordActivity(tx, {
      actor,
      kind: 'passkey_removed',
      summary: `${actor.name} eliminó la llave de acceso «${rows[0].name}»`,
    });
    return true;
  });
}

/** Options for signing in with a passkey (any of the site's: the authenticator offers its own). */
export async function authenticationOptions(db: Queryable, url: URL) {
  const options = await generateAuthenticationOptions({ rpID: party(url).rpID, userVerification: 'preferred' });
  const challengeId = await saveChallenge(db, 'authenticate', options.challenge, null);
  return { challengeId, options };
}

/** The member a credential id names (active or not), whose sign-in attempts it counts against; null for nobody. */
export async function passkeyOwner(
  db: Queryable,
  credentialId: string,
): Promise<{ id: string; email: string; name: string | null } | null> {
  const { rows } = await db.query<{ id: string; email: string; name: string | null }>(
    'SELECT u.id, u.email, u.name FROM passkeys p JOIN users u ON u.id = p.user_id WHERE p.id = $1',
    [credentialId],
  );
  return rows[0] ?? null;
}

/** The member a passkey answer signs in, or null (unknown key, bad signature, used challenge, deactivated member). */
export async function authenticatePasskey(
  db: Database,
  url: URL,
  input: { challengeId: string; response: AuthenticationResponseJSON },
): Promise<string | null> {
  const challenge = await takeChallenge(db, input.challengeId, 'authenticate', null);
  if (!challenge) return null;
  const { rows } = await db.query<{
    id: string;
    user_id: string;
    public_key: Buffer;
    counter: string;
    transports: string[];
  }>(
    `SELECT p.id, p.user_id, p.public_key, p.counter, p.transports
     FROM passkeys p JOIN users u ON u.id = p.user_id
     WHERE p.id = $1 AND u.deactivated_at IS NULL`,
    [input.response.id],
  );
  const stored = rows[0];
  if (!stored) return null;
  const verification = await verifyAuthenticationResponse({
    response: input.response,
    ...expected(url, challenge),
    credential: {
      id: stored.id,
      publicKey: new Uint8Array(stored.public_key),
      counter: Number(stored.counter),
      transports: stored.transports as AuthenticatorTransport[],
    },
  }).catch(() => null);
  if (!verification?.verified) return null;
  await db.query('UPDATE passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [
    stored.id,
    verification.authenticationInfo.newCounter,
  ]);
  return stored.user_id;
}
