import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeVoicePlatform, PRIVATE_KEY, startFakeVoicePlatform } from '../support/vapi-platform.ts';

/** Issue #42: the assistant defined in the repository, published through the platform's API, checked at launch. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FILLED_IN = path.join(ROOT, 'tests/fixtures/launch/filled-in.json');
const SITE_URL = 'https://www.ceibacasas.mx';
const SECRET = 'secreto-del-servidor-de-voz-2026';
const run = promisify(execFile);

let platform: FakeVoicePlatform;
let dataDir: string;

beforeAll(async () => {
  platform = await startFakeVoicePlatform();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'casas-voice-'));
});
afterAll(async () => {
  await platform?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The script as a deploy runs it, with only the variables given (nothing of this machine's environment leaks in). */
async function script(file: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
const publish = (args: string[], env: Record<string, string> = {}) => script('scripts/voice-publish.ts', args, env);

const platformEnv = (extra: Record<string, string> = {}) => ({
  VAPI_API_BASE: platform.url,
  VAPI_PRIVATE_KEY: PRIVATE_KEY,
  SITE_URL,
  ...extra,
});

type Assistant = {
  name: string;
  analysisPlan?: { structuredDataPlan?: { enabled: boolean; schema: { properties: Record<string, unknown> } } };
  model: { messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
  server: { url: string; credentialId?: string; backoffPlan?: object };
  metadata: { definition: string };
};

describe('npm run voice:publish', () => {
  it('prints the assistant built from the catalogue with --dry-run, and a price changed in the data changes its prompt', async () => {
    const before = await publish(['--dry-run'], { SITE_URL });
    expect(before.code).toBe(0);
    const assistant = JSON.parse(before.stdout) as Assistant;
    const prompt = assistant.model.messages[0]?.content ?? '';
    expect(prompt).toContain('Lumo: 22.21 m², para 2 personas, un nivel, desde $349,000 MXN, entrega en 4 a 6 semanas');
    expect(prompt).toContain('Garantía estructural de 10 años');
    expect(prompt).toContain('Asesoría personalizada (30 min, $499 MXN');
    expect(assistant.server.url).toBe(`${SITE_URL}/api/voice/events`);
    // The report's data (a call the agent never stored still joins its contact): the fields report.ts reads.
    const plan = assistant.analysisPlan?.structuredDataPlan;
    expect(plan?.enabled).toBe(true);
    expect(Object.keys(plan?.schema.properties ?? {}).sort()).toEqual(['correo', 'interes', 'nombre', 'telefono']);
    expect(assistant.model.tools.map((tool) => tool.function.name)).toEqual([
      'buscar_modelos',
      'horarios_disponibles',
      'agendar_visita',
      'guardar_prospecto',
      'enviar_whatsapp',
    ]);

    // Marketing changes Lumo's price in the editor: the next build's assistant says the new one.
    const models = JSON.parse(readFileSync(path.join(ROOT, 'src/data/models.json'), 'utf8')) as {
      models: { id: string; priceFromMxn: number }[];
    };
    for (const model of models.models) if (model.id === 'lumo') model.priceFromMxn = 359000;
    writeFileSync(path.join(dataDir, 'models.json'), JSON.stringify(models));
    const after = await publish(['--dry-run', '--data-dir', dataDir], { SITE_URL });
    expect(after.code).toBe(0);
    const changed = JSON.parse(after.stdout) as Assistant;
    const newPrompt = changed.model.messages[0]?.content ?? '';
    expect(newPrompt).toContain('Lumo: 22.21 m², para 2 personas, un nivel, desde $359,000 MXN');
    expect(newPrompt).not.toContain('$349,000');
    expect(changed.metadata.definition).not.toBe(assistant.metadata.definition);
  });

  it('refuses data that breaks its schema, in Spanish, and sends nothing', async () => {
    writeFileSync(path.join(dataDir, 'voice-agent.json'), JSON.stringify({ name: '' }));
    const broken = await publish(['--dry-run', '--data-dir', dataDir], { SITE_URL });
    rmSync(path.join(dataDir, 'voice-agent.json'));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('src/data/voice-agent.json');
    expect(broken.stdout).toBe('');
  });

  it('does nothing, successfully, without a private key when the deploy asks --if-configured', async () => {
    const skipped = await publish(['--if-configured'], { SITE_URL });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain('sin VAPI_PRIVATE_KEY');
    const refused = await publish([], { SITE_URL });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('falta VAPI_PRIVATE_KEY');
  });

  it('publishes nothing from a deploy preview or a branch deploy: only production updates the live assistant', async () => {
    const requests = platform.requests.length;
    for (const context of ['deploy-preview', 'branch-deploy']) {
      const preview = await publish(
        ['--if-configured'],
        platformEnv({ VAPI_WEBHOOK_SECRET: SECRET, CONTEXT: context }),
      );
      expect(preview.code).toBe(0);
      expect(preview.stdout).toContain(`CONTEXT=${context}) el asistente de voz no se publica`);
    }
    expect(platform.requests.length).toBe(requests);
  });

  it('creates the credential and the assistant, then updates the same one, and the launch check knows a stale one', async () => {
    const requests = platform.requests.length;
    const first = await publish([], platformEnv({ VAPI_WEBHOOK_SECRET: SECRET }));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const credentialId = /VAPI_CREDENTIAL_ID=(\S+)/.exec(first.stdout)?.[1] ?? '';
    const assistantId = /PUBLIC_VAPI_ASSISTANT_ID=(\S+)/.exec(first.stdout)?.[1] ?? '';
    expect(platform.credentials.get(credentialId)).toMatchObject({
      provider: 'custom-credential',
      authenticationPlan: { type: 'bearer', token: SECRET, headerName: 'Authorization', bearerPrefixEnabled: true },
    });
    const published = platform.assistants.get(assistantId) as unknown as Assistant;
    expect(published.server).toEqual({
      url: `${SITE_URL}/api/voice/events`,
      credentialId,
      timeoutSeconds: 10,
      // A message our server could not take is sent again (Vapi sends it once without a plan).
      backoffPlan: { type: 'exponential', maxRetries: 5, baseDelaySeconds: 2 },
    });
    expect(published.name).toBe('Ceiba - agente de voz');

    // Published again with its ids: the same assistant is updated whole, no second one or second credential.
    const env = platformEnv({ VAPI_CREDENTIAL_ID: credentialId, PUBLIC_VAPI_ASSISTANT_ID: assistantId });
    const second = await publish([], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`actualizado: ${assistantId}`);
    expect(platform.assistants.size).toBe(1);
    expect(platform.credentials.size).toBe(1);
    expect(platform.requests.slice(requests).map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /credential',
      'GET /assistant',
      'POST /assistant',
      `GET /assistant/${assistantId}`,
      `PATCH /assistant/${assistantId}`,
      `GET /assistant/${assistantId}`,
    ]);

    const launch = (extra: Record<string, string>) =>
      script('scripts/check-launch.ts', ['--site', FILLED_IN], { ...env, VAPI_WEBHOOK_SECRET: SECRET, ...extra });
    const fresh = await launch({});
    expect(fresh.stderr).not.toContain('Agente de voz');
    expect(fresh.code).toBe(0);

    // Someone edits the assistant in the platform's dashboard (or a price changed since the last publish).
    const edited = platform.assistants.get(assistantId) as Record<string, unknown>;
    platform.assistants.set(assistantId, { ...edited, metadata: { definition: 'cambiado-a-mano' } });
    const stale = await launch({});
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(`El asistente de voz publicado (${assistantId}) no es el de este repositorio`);
    expect(stale.stderr).toContain('npm run voice:publish');

    const wrongKey = await publish([], { ...env, VAPI_PRIVATE_KEY: 'pk-publica-por-error' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('rechazó la llave privada');
  });
});
