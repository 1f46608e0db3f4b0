import { type ApiError, api } from './api.ts';

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** A passkey the browser refused or the person cancelled: no toast needed. */
const cancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

type Outcome = { ok: true } | { ok: false; error: string | null };

/** The server's options for a ceremony, or null when they did not come. */
const optionsFrom = (path: string, anonymous: boolean) =>
  api<{ challengeId: string; options: object }>(path, { method: 'POST', anonymous }).catch(() => null);

/** The ceremony's answer sent back: ok, or the server's reason (`fallback` without one). */
const finish = (path: string, json: object, fallback: string, anonymous: boolean): Promise<Outcome> =>
  api(path, { method: 'POST', json, anonymous }).then(
    () => ({ ok: true }),
    (error: ApiError) => ({ ok: false, error: error.body.error ?? fallback }),
  );

/**
 * Adds a passkey to the signed-in member's account: the server's options,
 * the browser's ceremony (the library loads only now), the server's check.
 */
export async function addPasskey(name: string): Promise<Outcome> {
  const options = await optionsFrom('/api/auth/passkeys/register/options', false);
  if (!options) return { ok: false, error: 'No se pudo preparar la llave de acceso. Intenta de nuevo.' };
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: options.options as never });
  } catch (error) {
    return { ok: false, error: cancelled(error) ? null : 'Este dispositivo no pudo crear la llave de acceso.' };
  }
  return finish(
    '/api/auth/passkeys/register',
    { challengeId: options.challengeId, response, name },
    'No se pudo guardar la llave de acceso.',
    false,
  );
}

/** Signs in with a passkey; the session cookie comes with the answer. */
export async function signInWithPasskey(): Promise<Outcome> {
  const options = await optionsFrom('/api/auth/passkeys/login/options', true);
  if (!options) return { ok: false, error: 'No se pudo iniciar el acceso con llave. Intenta de nuevo.' };
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startAuthentication({ optionsJSON: options.options as never });
  } catch (error) {
    return { ok: false, error: cancelled(error) ? null : 'Este dispositivo no pudo usar la llave de acceso.' };
  }
  return finish(
    '/api/auth/passkeys/login',
    { challengeId: options.challengeId, response },
    'No se pudo iniciar sesión.',
    true,
  );
}
