import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';

/** The local server's origin, as a browser on our pages would send it. */
export const originOf = (url: string): string => new URL(url).origin;

/** Creates the first administrator through the endpoint and returns the session cookie. */
export async function setupAdmin(baseUrl: string, email = 'admin@ceiba.mx', password = 'contraseña-segura') {
  const response = await fetch(`${baseUrl}/api/auth/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(baseUrl) },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 201) throw new Error(`setup answered ${response.status}: ${await response.text()}`);
  return cookieOf(response);
}

/**
 * An adviser invited by the administrator (`adminCookie`) who accepted at once:
 * their id and session cookie.
 */
export async function inviteAdviser(baseUrl: string, adminCookie: string, email: string, name: string) {
  const headers = { Cookie: adminCookie, Origin: originOf(baseUrl), 'Content-Type': 'application/json' };
  const invitation = await fetch(`${baseUrl}/api/admin/team/invitations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, role: 'asesor' }),
  });
  const { link } = (await invitation.json()) as { link: string };
  const accepted = await fetch(`${baseUrl}/api/auth/invitation`, {
    method: 'POST',
    headers: { Origin: originOf(baseUrl), 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: link.split('#')[1], name, password: 'asesor-seguro-1' }),
  });
  const { user } = (await accepted.json()) as { user: { id: string } };
  return { id: user.id, cookie: cookieOf(accepted) };
}

export async function login(baseUrl: string, email: string, password: string) {
  return fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(baseUrl) },
    body: JSON.stringify({ email, password }),
  });
}

/** "name=value" of the session cookie a response set. */
export function cookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  return header.split(';')[0] ?? '';
}

/** A token signed like ours but with whatever claims, key and lifetime a test needs. */
export function forgeToken(options: {
  secret: string;
  sub: string;
  /** The server-side session it names; a random one (no such session) by default. */
  jti?: string;
  expiresIn?: string;
  issuer?: string;
}) {
  return new SignJWT({ email: 'x@ceiba.mx' })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(options.jti ?? randomUUID())
    .setSubject(options.sub)
    .setIssuer(options.issuer ?? 'ceiba-admin')
    .setAudience('ceiba-admin')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(new TextEncoder().encode(options.secret));
}

/**
 * A JSON request to the server at `baseUrl`, as a member's browser on our pages
 * sends it: their session cookie (or none), our Origin, JSON content.
 */
export function memberRequest(baseUrl: () => string) {
  return (cookie: string | null, pathname: string, init: RequestInit = {}) =>
    fetch(baseUrl() + pathname, {
      ...init,
      headers: {
        ...(cookie ? { Cookie: cookie } : {}),
        Origin: originOf(baseUrl()),
        'Content-Type': 'application/json',
        ...init.headers,
      },
    });
}
