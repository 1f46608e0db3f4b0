import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseBuildConfig } from '../integrations/build-config.ts';
import { launchCheck } from '../integrations/launch-check.ts';
import { LEGAL_DIR, PROJECT_ROOT, readLegalTexts } from './content-check.ts';
import { checkLaunch, launchMode, launchReport } from './launch.ts';
import { formatProblem } from './problems.ts';
import { LAUNCH_FIELDS, siteSchema } from './schemas.ts';
import { type SiteFacts, site } from './site.ts';

/** site.json as shipped, every launch fact a placeholder; and the same with real-looking facts. */
const PLACEHOLDERS = path.join(PROJECT_ROOT, 'tests/fixtures/launch/placeholders.json');
const FILLED_IN = path.join(PROJECT_ROOT, 'tests/fixtures/launch/filled-in.json');
const load = (file: string): SiteFacts => siteSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const filledIn = () => load(FILLED_IN);
const legal = readLegalTexts();
const lines = (facts: SiteFacts, texts = legal) => checkLaunch(facts, texts).map(formatProblem);

/** A copy of the project's data for the build hook: site.json from `siteFile`, the real legal pages. */
const roots: string[] = [];
function projectWith(siteFile: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'casas-launch-'));
  roots.push(root);
  cpSync(siteFile, path.join(root, 'src/data/site.json'));
  cpSync(path.join(PROJECT_ROOT, LEGAL_DIR), path.join(root, LEGAL_DIR), { recursive: true });
  return root;
}
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('the launch check', () => {
  it('reports every fact that src/data/site.json still marks as a placeholder', () => {
    const problems = lines(site);
    for (const field of site.placeholders)
      expect(problems).toContainEqual(
        expect.stringContaining(`site.json, campo "${field}": sigue siendo un dato de ejemplo`),
      );
  });

  it('fails on the data as shipped, naming each placeholder with its file and field', () => {
    const problems = lines(load(PLACEHOLDERS));
    for (const field of LAUNCH_FIELDS)
      expect(problems).toContainEqual(
        expect.stringMatching(
          `^src/data/site.json, campo "${field}": sigue siendo un dato de ejemplo\\. Escribe .+ Después quita "${field}" de la lista "placeholders"`,
        ),
      );
    // Today's link is not a Stripe Payment Link, and the address has neither a street nor a postal code.
    expect(problems).toContain(
      'src/data/site.json, campo "paymentLink": "https://buy.stripe.com/ceiba-consultoria" no es una liga de pago de Stripe: debe ser https://buy.stripe.com/ seguida del código que da Stripe, solo letras y números (por ejemplo https://buy.stripe.com/fZu9AUb5cb646B8fgp5Ne05). Cópiala tal cual del panel de Stripe, en Payment Links.',
    );
    expect(problems).toContain(
      'src/data/site.json, campo "legal.address": tiene texto entre corchetes: escribe el domicilio real.',
    );
    expect(problems).toContain(
      'src/data/site.json, campo "legal.address": le falta el código postal de 5 dígitos (por ejemplo "C.P. 97000").',
    );
    expect(problems).toHaveLength(LAUNCH_FIELDS.length + 3);
  });

  it('passes on a filled-in site.json', () => {
    expect(lines(filledIn())).toEqual([]);
    expect(launchReport([])).toMatch(/^Listo para publicar/);
  });

  it('reports a fact still marked, even when its value looks real', () => {
    const site = { ...filledIn(), placeholders: ['founder.name' as const] };
    expect(lines(site)).toEqual([
      'src/data/site.json, campo "founder.name": sigue siendo un dato de ejemplo. Escribe el nombre de quien firma la cita final de la página de inicio, como deba aparecer. Después quita "founder.name" de la lista "placeholders" de ese archivo.',
    ]);
  });

  const broken: [string, (site: SiteFacts) => void, string][] = [
    [
      'a WhatsApp number without its country code',
      (site) => {
        site.whatsapp.number = '9999301245';
      },
      'src/data/site.json, campo "whatsapp.number": "9999301245": le falta el código de país: escribe 52 antes de los 10 dígitos.',
    ],
    [
      "a WhatsApp number with Mexico's old mobile 1",
      (site) => {
        site.whatsapp.number = '5219999301245';
      },
      'src/data/site.json, campo "whatsapp.number": "5219999301245": sobra el 1 después del 52: WhatsApp usa 52 y los 10 dígitos del número.',
    ],
    [
      'a WhatsApp number of another country',
      (site) => {
        site.whatsapp.number = '4915112345678';
      },
      'src/data/site.json, campo "whatsapp.number": "4915112345678": debe ser 52 seguido de los 10 dígitos del número, solo dígitos (por ejemplo 529991234567).',
    ],
    [
      'a payment link on another host',
      (site) => {
        site.paymentLink = 'https://pagos.ceibacasas.mx/5kA3cT8Xq1Zb6RO4gg';
      },
      'src/data/site.json, campo "paymentLink": "https://pagos.ceibacasas.mx/5kA3cT8Xq1Zb6RO4gg" no es una liga de pago de Stripe',
    ],
    [
      "a payment link from Stripe's test mode",
      (site) => {
        site.paymentLink = 'https://buy.stripe.com/test_5kA3cT8Xq1Zb6RO4gg';
      },
      'src/data/site.json, campo "paymentLink": "https://buy.stripe.com/test_5kA3cT8Xq1Zb6RO4gg" es una liga del modo de prueba de Stripe (empieza con test_): no cobra de verdad. Usa la liga del modo en vivo.',
    ],
    [
      'a YouTube address instead of the video id',
      (site) => {
        site.videos.method.youtubeId = 'https://youtu.be/q3Xb9-K_r2A';
      },
      'src/data/site.json, campo "videos.method.youtubeId": "https://youtu.be/q3Xb9-K_r2A" no es un código de video de YouTube',
    ],
    [
      'an Instagram address as the Facebook profile',
      (site) => {
        (site.social[0] as { url: string }).url = 'https://www.instagram.com/ceiba.casas';
      },
      'src/data/site.json, campo "social", elemento 1, campo "url": "https://www.instagram.com/ceiba.casas" no es la dirección de un perfil de Facebook: debe tener la forma https://www.facebook.com/ceibacasas.',
    ],
    [
      'a TikTok profile without its @',
      (site) => {
        site.social.push({ network: 'tiktok', label: 'TikTok', url: 'https://www.tiktok.com/ceibacasas' });
      },
      'src/data/site.json, campo "social", elemento 5, campo "url": "https://www.tiktok.com/ceibacasas" no es la dirección de un perfil de TikTok',
    ],
    [
      'an e-mail at an example domain',
      (site) => {
        site.privacyEmail = 'privacidad@example.com';
      },
      'src/data/site.json, campo "privacyEmail": "privacidad@example.com" es de un dominio de ejemplo: escribe un correo real.',
    ],
    [
      'a phone shown and dialled differently',
      (site) => {
        site.phone.display = '999 930 1246';
      },
      'src/data/site.json, campo "phone.display": "999 930 1246" no es el mismo número que "phone.e164" (+529999301245): corrige el que esté mal.',
    ],
    [
      'an address without a postal code',
      (site) => {
        site.legal.address = 'Calle 60 núm. 451, Col. Centro, Mérida, Yucatán, México';
      },
      'src/data/site.json, campo "legal.address": le falta el código postal de 5 dígitos (por ejemplo "C.P. 97000").',
    ],
  ];

  it.each(broken)('reports %s', (_name, breakIt, expected) => {
    const site = filledIn();
    breakIt(site);
    const problems = lines(site);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it('reports a blank left in a legal page, and a privacy notice that does not show the address', () => {
    const notice = legal.find((page) => page.file.endsWith('aviso-de-privacidad.md'));
    expect(notice?.text).toContain('{domicilio}');
    const edited = [
      {
        file: 'src/content/legal/aviso-de-privacidad.md',
        text: (notice?.text ?? '').replace('{domicilio}', 'Mérida').replace('**{email}**', '[correo de privacidad]'),
      },
    ];
    const problems = lines(filledIn(), edited);
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^src\/content\/legal\/aviso-de-privacidad\.md, línea \d+: "\[correo de privacidad\]" es un texto por completar/,
      ),
    );
    expect(problems).toContain(
      'src/content/legal/aviso-de-privacidad.md: el aviso de privacidad debe mostrar el domicilio del responsable: escribe {domicilio} donde va (se llena con "legal.address" de src/data/site.json).',
    );
    // A markdown link is not a blank.
    expect(lines(filledIn(), [{ file: 'x.md', text: 'Lee el [aviso](/aviso-de-privacidad).' }])).toEqual([]);
  });
});

describe('when the check stops the build', () => {
  it("is strict in Netlify's production context or with LAUNCH_CHECK=strict, and only warns elsewhere", () => {
    const mode = (env: Record<string, string>) => launchMode(parseBuildConfig(env));
    expect(mode({ CONTEXT: 'production' })).toBe('strict');
    expect(mode({ LAUNCH_CHECK: 'strict' })).toBe('strict');
    expect(mode({ CONTEXT: 'deploy-preview', NODE_ENV: 'production' })).toBe('warn');
    expect(mode({ CONTEXT: 'branch-deploy' })).toBe('warn');
    expect(mode({})).toBe('warn');
    expect(mode({ CONTEXT: 'production', LAUNCH_CHECK: ' ' })).toBe('strict');
    expect(mode({ CONTEXT: 'production', LAUNCH_CHECK: 'warn' })).toBe('warn');
    expect(() => mode({ LAUNCH_CHECK: 'yes' })).toThrow('LAUNCH_CHECK debe ser "strict" o "warn" (es "yes").');
    expect(() => parseBuildConfig({ SITE_URL: 'ftp://ceiba.mx' })).toThrow(
      'SITE_URL debe ser una URL http:// o https://.',
    );
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const runHook = (root: string, command: 'build' | 'dev' | 'preview') => {
    const warn = vi.fn();
    const printed: string[] = [];
    const exits: number[] = [];
    const hook = launchCheck({ root, print: (text) => printed.push(text), exit: (code) => exits.push(code) }).hooks[
      'astro:config:setup'
    ] as (options: unknown) => void;
    hook({ command, logger: { warn } as unknown as AstroIntegrationLogger });
    return { warn, printed, exits };
  };

  it('stops the production build with the whole list while placeholders are left, warns in two lines on a deploy preview, and lets a filled-in site through', () => {
    const shipped = projectWith(PLACEHOLDERS);
    vi.stubEnv('LAUNCH_CHECK', '');
    vi.stubEnv('CONTEXT', 'production');
    const strict = runHook(shipped, 'build');
    expect(strict.exits).toEqual([1]);
    expect(strict.printed[0]).toMatch(
      /^El sitio todavía no está listo para publicarse \(13 pendientes\):\n {2}1\. src\/data\/site\.json, campo "phone"/,
    );
    const filled = runHook(projectWith(FILLED_IN), 'build');
    expect([filled.exits, filled.printed, filled.warn.mock.calls]).toEqual([[], [], []]);

    vi.stubEnv('CONTEXT', 'deploy-preview');
    const { warn, exits } = runHook(shipped, 'build');
    expect(exits).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    const summary = String(warn.mock.calls[0]?.[0]);
    expect(summary.split('\n')).toHaveLength(2);
    expect(summary).toMatch(
      /^Aviso de publicación: 13 datos pendientes antes de publicar, en src\/data\/site\.json \(phone, email, .*legal\.address.*\)/,
    );
    expect(summary).toContain('npm run check:launch');
    expect(runHook(shipped, 'dev').warn).toHaveBeenCalledOnce();
    expect(runHook(shipped, 'preview').warn).not.toHaveBeenCalled();
  });

  it('runs in the build, after the content check and before every other integration', async () => {
    const { default: config } = await import('../../astro.config.mjs');
    expect(config.integrations?.slice(0, 2).map((integration) => (integration as { name: string }).name)).toEqual([
      'content-check',
      'launch-check',
    ]);
  });

  it('npm run check:launch exits 1 listing what is left, and 0 on the filled-in fixture', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['scripts/check-launch.ts', ...args], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    const pending = run('--site', PLACEHOLDERS);
    expect(pending.status).toBe(1);
    expect(pending.stderr).toContain('El sitio todavía no está listo para publicarse (14 pendientes):');
    expect(pending.stderr).toContain('  5. src/data/site.json, campo "paymentLink": sigue siendo un dato de ejemplo.');
    expect(pending.stderr).toContain('npm run check:launch');

    const ready = run('--site', FILLED_IN);
    expect(ready.stderr).toBe('');
    expect(ready.stdout.trim()).toBe(
      'Listo para publicar: no queda ningún dato de ejemplo y las ligas tienen la forma correcta.',
    );
    expect(ready.status).toBe(0);

    expect(run('--sitio', FILLED_IN).status).toBe(2);
  });

  it('npm run check:launch names a Stripe key without its webhook secret, and a test key in production', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['scripts/check-launch.ts', '--site', FILLED_IN], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        env: { ...process.env, STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '', ...env },
      });
    const missing = run({ STRIPE_SECRET_KEY: 'rk_live_abcdefgh12345678' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Falta STRIPE_WEBHOOK_SECRET');
    const testKey = run({
      STRIPE_SECRET_KEY: 'sk_test_abcdefgh12345678',
      STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh12345678',
      CONTEXT: 'production',
    });
    expect(testKey.status).toBe(1);
    expect(testKey.stderr).toContain('STRIPE_SECRET_KEY es una llave de prueba');
    const both = run({
      STRIPE_SECRET_KEY: 'rk_live_abcdefgh12345678',
      STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh12345678',
    });
    expect(both.stderr).toBe('');
    expect(both.status).toBe(0);
  });
});
