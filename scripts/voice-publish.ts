/**
 * `npm run voice:publish`: publishes the voice agent's assistant, built from
 * this repository's data (src/server/voice/assistant.ts), to the voice
 * platform (issue #42, decision 0071). It updates PUBLIC_VAPI_ASSISTANT_ID's
 * assistant (or the one of the same name, or creates one and says which id
 * to set), referencing VAPI_CREDENTIAL_ID's credential (created from
 * VAPI_WEBHOOK_SECRET when unset, with its id to keep), then reads it back
 * and checks its fingerprint.
 *
 *   -- --dry-run            prints the assistant's JSON and sends nothing
 *   -- --if-configured      does nothing, successfully, without VAPI_PRIVATE_KEY or outside production
 *                           (the deploy's build: Netlify's CONTEXT other than production)
 *   -- --data-dir <folder>  takes the data files present there instead of src/data's (a preview of edited data)
 *
 * Variables: VAPI_PRIVATE_KEY, SITE_URL (or Netlify's URL), VAPI_WEBHOOK_SECRET,
 * VAPI_CREDENTIAL_ID, PUBLIC_VAPI_ASSISTANT_ID; VAPI_API_BASE for the tests' fake.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DataError } from '../src/data/problems.ts';
import {
  ASSISTANT_FILES,
  type AssistantFile,
  assistantData,
  assistantDefinition,
  REPOSITORY_FILES,
} from '../src/server/voice/assistant.ts';
import {
  assistantSiteUrl,
  createCredential,
  PLATFORM_API,
  publishAssistant,
  publishedFingerprint,
} from '../src/server/voice/publish.ts';

const USAGE = 'Uso: npm run voice:publish [-- --dry-run] [-- --if-configured] [-- --data-dir carpeta]';

let options: { 'dry-run'?: boolean; 'if-configured'?: boolean; 'data-dir'?: string };
try {
  ({ values: options } = parseArgs({
    options: {
      'dry-run': { type: 'boolean' },
      'if-configured': { type: 'boolean' },
      'data-dir': { type: 'string' },
    },
  }));
} catch {
  console.error(USAGE);
  process.exit(2);
}

const env = process.env;
const fail = (message: string): never => {
  console.error(`voice:publish: ${message}`);
  process.exit(1);
};

/** The data files: the repository's, each replaced by the one of the same name in --data-dir when there. */
function files(): Record<AssistantFile, unknown> {
  const dir = options['data-dir'];
  if (!dir) return REPOSITORY_FILES;
  return Object.fromEntries(
    (Object.keys(ASSISTANT_FILES) as AssistantFile[]).map((file) => {
      const candidate = path.resolve(dir, file);
      return [file, existsSync(candidate) ? JSON.parse(readFileSync(candidate, 'utf8')) : REPOSITORY_FILES[file]];
    }),
  ) as Record<AssistantFile, unknown>;
}

// A deploy's build publishes only in production: a deploy preview or a branch deploy (Netlify's CONTEXT) would
// change the assistant the live site's callers talk to with data not yet published (docs/editar-contenido.md).
const context = env.CONTEXT?.trim();
if (options['if-configured'] && !options['dry-run'] && context && context !== 'production') {
  console.log(
    `voice:publish: en este despliegue (CONTEXT=${context}) el asistente de voz no se publica; solo producción lo actualiza.`,
  );
  process.exit(0);
}

const privateKey = env.VAPI_PRIVATE_KEY?.trim();
if (!options['dry-run'] && !privateKey) {
  if (options['if-configured']) {
    console.log('voice:publish: sin VAPI_PRIVATE_KEY; el asistente de voz no se publica.');
    process.exit(0);
  }
  fail('falta VAPI_PRIVATE_KEY, la llave privada de la plataforma de voz (Dashboard > API Keys).');
}

let data: ReturnType<typeof assistantData>;
try {
  data = assistantData(files());
} catch (error) {
  if (error instanceof DataError || error instanceof SyntaxError) fail(error.message);
  throw error;
}

const siteUrl = assistantSiteUrl(env) ?? (options['dry-run'] ? 'https://SITE_URL' : null);
if (!siteUrl) fail('falta SITE_URL, la dirección pública del sitio: el asistente llama a SITE_URL/api/voice/events.');

if (options['dry-run']) {
  const definition = assistantDefinition(
    { siteUrl: siteUrl as string, credentialId: env.VAPI_CREDENTIAL_ID?.trim() || null },
    data,
  );
  console.log(JSON.stringify(definition, null, 2));
  process.exit(0);
}

const platform = { apiBase: env.VAPI_API_BASE?.trim() || PLATFORM_API, privateKey: privateKey as string };
try {
  let credentialId = env.VAPI_CREDENTIAL_ID?.trim() || null;
  if (!credentialId) {
    const secret = env.VAPI_WEBHOOK_SECRET?.trim();
    if (!secret)
      fail('falta VAPI_WEBHOOK_SECRET (o VAPI_CREDENTIAL_ID): el secreto con el que la plataforma llama al sitio.');
    credentialId = await createCredential(platform, secret as string, `${data['voice-agent.json'].name} (servidor)`);
    console.log(`Credencial creada: guarda VAPI_CREDENTIAL_ID=${credentialId} en las variables del sitio.`);
  }
  const definition = assistantDefinition({ siteUrl: siteUrl as string, credentialId }, data);
  const published = await publishAssistant(platform, definition, env.PUBLIC_VAPI_ASSISTANT_ID?.trim() || null);
  const fingerprint = await publishedFingerprint(platform, published.id);
  if (fingerprint !== definition.metadata.definition) {
    fail(`la plataforma guardó otra versión del asistente ${published.id} (huella ${fingerprint ?? 'ninguna'}).`);
  }
  console.log(
    `Asistente de voz ${published.created ? 'creado' : 'actualizado'}: ${published.id} (huella ${fingerprint}).`,
  );
  if (published.created || published.id !== env.PUBLIC_VAPI_ASSISTANT_ID?.trim()) {
    console.log(
      `Guarda PUBLIC_VAPI_ASSISTANT_ID=${published.id} en las variables del sitio (el widget inicia las llamadas con él).`,
    );
  }
} catch (error) {
  fail((error as Error).message);
}
