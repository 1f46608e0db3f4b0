import { jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../../lib/ids.ts';
import { sessionSecret } from './secret.ts';

export const SESSION_COOKIE = 'ceiba_session';
export const SESSION_HOURS = 8;
const ISSUER = 'ceiba-admin';

export interface SessionClaims {
  /** The server-side session row (`sessions.id`): revoking it ends the token. */
  sessionId: string;
  userId: string;
  email: string;
}

/** A signed session token (HS256, 8 hours) naming its server-side session. */
export function signSession({ sessionId, userId, email }: SessionClaims, secret = sessionSecret()): Promise<string> {
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(sessionId)
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_HOURS}h`)
    .sign(secret);
}

/**
 * The claims of a valid token; null for anything else: tampered, expired or
 * without an expiry, another key or algorithm, ids that are not UUIDs.
 */
export async function verifySession(token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, sessionSecret(), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: ISSUER,
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
    });
    const { sub, jti, email } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof email !== 'string') return null;
    if (!isUuid(sub) || !isUuid(jti)) return null;
    return { sessionId: jti, userId: sub, email };
  } catch {
    return null;
  }
}

/** `Set-Cookie` for a session: HttpOnly, SameSite=Strict, Secure over https. */
export function sessionCookie(request: Request, token: string | null): string {
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  const value = token ?? '';
  const maxAge = token ? SESSION_HOURS * 3600 : 0;
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

export function readSessionCookie(request: Request): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || null;
  }
  return null;
}
