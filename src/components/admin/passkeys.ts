import { apiCall } from './api.ts';

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** A passkey the browser refused or the person cancelled: no toast needed. */
const cancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

/**
 * Adds a passkey to the signed-in member's account: the server's options,
 * the browser's ceremony (the library loads only now), the server's check.
 */
export async function addPasskey(name: string): Promise<{ ok: true } | { ok: false; error: string | null }> {
  const options = await apiCall<{ challengeId: string; options: object }>('/api/auth/passkeys/register/options', {
    method: 'POST',
  }).catch(() => null);
  if (!options?.ok) return { ok: false, error: 'No se pudo preparar la llave de acceso. Intenta de nuevo.' };
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: options.body.options as never });
  } catch (error) {
    return { ok: false, error: cancelled(error) ? null : 'Este dispositivo no pudo crear la llave de acceso.' };
  }
  const saved = await apiCall<{ error?: string }>('/api/auth/passkeys/register', {
    method: 'POST',
    body: JSON.stringify({ challengeId: options.body.challengeId, response, name }),
  }).catch(() => null);
  return saved?.ok ? { ok: true } : { ok: false, error: saved?.body.error ?? 'No se pudo guardar la llave de acceso.' };
}

/** Signs in with a passkey; the session cookie comes with the answer. */
export async function signInWithPasskey(): Promise<{ ok: true } | { ok: false; error: string | null }> {
  const options = await apiCall<{ challengeId: string; options: object }>('/api/auth/passkeys/login/options', {
    method: 'POST',
  }).catch(() => null);
  if (!options?.ok) return { ok: false, error: 'No se pudo iniciar el acceso con llave. Intenta de nuevo.' };
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startAuthentication({ optionsJSON: options.body.options as never });
  } catch (error) {
    return { ok: false, error: cancelled(error) ? null : 'Este dispositivo no pudo usar la llave de acceso.' };
  }
  const answer = await apiCall<{ error?: string }>('/api/auth/passkeys/login', {
    method: 'POST',
    body: JSON.stringify({ challengeId: options.body.challengeId, response }),
  }).catch(() => null);
  return answer?.ok ? { ok: true } : { ok: false, error: answer?.body.error ?? 'No se pudo iniciar sesión.' };
}
