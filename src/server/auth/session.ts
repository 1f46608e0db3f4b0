import { jwtVerify, SignJWT } from 'jose';
import { sessionSecret } from './secret.ts';

export const SESSION_COOKIE = 'ceiba_session';
export const SESSION_HOURS = 8;
const ISSUER = 'ceiba-admin';

export interface SessionClaims {
  userId: string;
  email: string;
}

/** A signed session token (HS256, 8 hours). */
export function signSession({ userId, email }: SessionClaims, secret = sessionSecret()): Promise<string> {
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_HOURS}h`)
    .sign(secret);
}

/** The claims of a valid token; null for anything else (tampered, expired, other key or algorithm). */
export async function verifySession(token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, sessionSecret(), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: ISSUER,
    });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') return null;
    return { userId: payload.sub, email: payload.email };
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
