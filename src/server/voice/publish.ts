import { type AssistantDefinition, assistantDefinition } from './assistant.ts';

/**
 * The voice platform's REST API (Vapi, https://api.vapi.ai, Bearer private
 * key), as far as publishing the assistant needs it (issue #42, decision
 * 0071): create a custom credential that sends our webhook secret, create or
 * update the assistant (PATCH replaces nested objects whole, so the whole
 * definition is always sent), and read the published one back. Plain fetch:
 * the official SDK has no credentials resource, and this is four calls.
 */

export interface Platform {
  /** VAPI_API_BASE (the tests' fake) or the platform's own. */
  apiBase: string;
  /** VAPI_PRIVATE_KEY. */
  privateKey: string;
}

export const PLATFORM_API = 'https://api.vapi.ai';

/** A Spanish error with the platform's status, never its body (it may echo what we sent). */
export class PlatformError extends Error {
  override name = 'PlatformError';
  readonly status: number | null;
  constructor(status: number | null, what: string) {
    super(
      status === null
        ? `No se pudo contactar la plataforma de voz (${what}).`
        : status === 401 || status === 403
          ? `La plataforma de voz rechazó la llave privada (${what}: ${status}). Revisa VAPI_PRIVATE_KEY.`
          : `La plataforma de voz respondió ${status} (${what}).`,
    );
    this.status = status;
  }
}

async function call<T>(platform: Platform, method: string, path: string, what: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${platform.apiBase.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${platform.privateKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new PlatformError(null, what);
  }
  if (!response.ok) throw new PlatformError(response.status, what);
  return (await response.json()) as T;
}

interface PublishedAssistant {
  id: string;
  name?: string;
  updatedAt?: string;
  metadata?: Record<string, unknown> | null;
}

/**
 * A custom credential that sends `secret` as `Authorization: Bearer`, the
 * header /api/voice/events reads: its id goes in VAPI_CREDENTIAL_ID.
 */
export async function createCredential(platform: Platform, secret: string, name: string): Promise<string> {
  const created = await call<{ id: string }>(platform, 'POST', '/credential', 'crear la credencial', {
    provider: 'custom-credential',
    name,
    authenticationPlan: { type: 'bearer', token: secret, headerName: 'Authorization', bearerPrefixEnabled: true },
  });
  return created.id;
}

/**
 * Publishes `definition`: into the assistant `id` when given; otherwise into
 * the one of the same name, or a new one. Returns its id and whether it was created.
 */
export async function publishAssistant(
  platform: Platform,
  definition: AssistantDefinition,
  id: string | null,
): Promise<{ id: string; created: boolean }> {
  let target = id;
  if (!target) {
    const all = await call<PublishedAssistant[]>(platform, 'GET', '/assistant?limit=1000', 'listar los asistentes');
    target = all.find((assistant) => assistant.name === definition.name)?.id ?? null;
  }
  if (target) {
    const updated = await call<PublishedAssistant>(
      platform,
      'PATCH',
      `/assistant/${encodeURIComponent(target)}`,
      'actualizar el asistente',
      definition,
    );
    return { id: updated.id, created: false };
  }
  const created = await call<PublishedAssistant>(platform, 'POST', '/assistant', 'crear el asistente', definition);
  return { id: created.id, created: true };
}

/** The fingerprint of the published assistant `id` (its `metadata.definition`), or null when it has none. */
export async function publishedFingerprint(platform: Platform, id: string): Promise<string | null> {
  const published = await call<PublishedAssistant>(
    platform,
    'GET',
    `/assistant/${encodeURIComponent(id)}`,
    'leer el asistente publicado',
  );
  const fingerprint = published.metadata?.definition;
  return typeof fingerprint === 'string' ? fingerprint : null;
}

/** The public site the assistant's server URL is on: SITE_URL, or Netlify's URL during its build. */
export function assistantSiteUrl(env: Record<string, string | undefined>): string | null {
  return env.SITE_URL?.trim() || env.URL?.trim() || null;
}

/**
 * The launch check of the voice agent (`npm run check:launch`), in Spanish:
 * an assistant published from an older definition than this repository's
 * (a price changed since, or the tools), one the platform cannot show, or a
 * widget whose assistant calls a server without its secret.
 */
export async function voiceLaunchProblems(env: Record<string, string | undefined>): Promise<string[]> {
  const id = env.PUBLIC_VAPI_ASSISTANT_ID?.trim();
  if (!id) return [];
  const problems: string[] = [];
  if (!env.VAPI_WEBHOOK_SECRET?.trim())
    problems.push(
      'Falta VAPI_WEBHOOK_SECRET: sin él /api/voice/events rechaza las herramientas y el reporte de cada llamada.',
    );
  const privateKey = env.VAPI_PRIVATE_KEY?.trim();
  const siteUrl = assistantSiteUrl(env);
  if (!privateKey || !siteUrl) {
    problems.push(
      'No se puede comprobar el asistente de voz publicado: define VAPI_PRIVATE_KEY y SITE_URL (npm run voice:publish los usa también).',
    );
    return problems;
  }
  const platform = { apiBase: env.VAPI_API_BASE?.trim() || PLATFORM_API, privateKey };
  const expected = assistantDefinition({ siteUrl, credentialId: env.VAPI_CREDENTIAL_ID?.trim() || null }).metadata
    .definition;
  try {
    const published = await publishedFingerprint(platform, id);
    if (published !== expected)
      problems.push(
        `El asistente de voz publicado (${id}) no es el de este repositorio (huella ${published ?? 'ninguna'}, debe ser ${expected}): sus precios o herramientas están desactualizados. Corre npm run voice:publish.`,
      );
  } catch (error) {
    problems.push((error as Error).message);
  }
  return problems;
}
