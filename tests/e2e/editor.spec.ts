import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { E2E_PORT } from './playwright.config.ts';

/**
 * Marketing's journey in the content editor (issue #28, decision 0038), in its
 * local mode: `npm run editor` over a copy of the project (the repository is
 * never touched), a price changed, a sixth model added with its photo and
 * seen in the preview, an invalid value refused with the build's own Spanish
 * message, the files saved; then the copy is built once and its /modelos
 * shows the change. Desktop only: the editor is for a computer.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const EDITOR_PORT = E2E_PORT + 171;

let copy: string;
let editor: ChildProcess;

/** The editor is for a computer: the story runs once, in 'desktop' (its own editor and copy). */
const desktop = (info: TestInfo) => info.project.name === 'desktop';

test.beforeAll(async ({ browserName: _ }, info) => {
  if (!desktop(info)) return;
  copy = mkdtempSync(path.join(os.tmpdir(), 'casas-editor-e2e-'));
  for (const item of ['src', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'])
    cpSync(path.join(ROOT, item), path.join(copy, item), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  editor = spawn(process.execPath, ['scripts/editor.ts'], {
    cwd: ROOT,
    env: { ...process.env, EDITOR_PORT: String(EDITOR_PORT), EDITOR_ROOT: copy },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    editor.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Editor de contenido:')) resolve();
    });
    editor.on('exit', (code) => reject(new Error(`npm run editor terminó (${code})`)));
  });
});

test.afterAll(() => {
  editor?.kill('SIGTERM');
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** The list item whose summary is `name`. */
function item(page: Page, name: string): Locator {
  return page
    .locator('[class*="listControlItem"]')
    .filter({ has: page.locator('[class*="NestedObjectLabel"]', { hasText: new RegExp(`^${name}$`) }) });
}

test('marketing changes a price and adds a model with its photo; the built /modelos shows both', async ({
  page,
}, info) => {
  test.skip(!desktop(info), 'the editor is for a computer');
  test.setTimeout(360_000);
  await page.goto(`http://127.0.0.1:${EDITOR_PORT}/editor`);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.getByRole('link', { name: 'Modelos y precios' }).click();

  // A price: Meridian from $319,000 to $299,000, seen in the preview beside the form.
  const meridian = item(page, 'Meridian');
  await meridian.locator('button').first().click();
  await meridian.getByLabel('Precio "desde", en pesos').fill('299000');
  const preview = page.frameLocator('iframe').first();
  await expect(preview.locator('[data-preview-model="meridian"]')).toContainText('Desde $299,000 MXN');

  // A sixth model, with a photo uploaded from the computer.
  await page.getByRole('button', { name: 'Agregar modelo' }).click();
  await page.locator('[class*="listControlItem"]').last().getByLabel('Nombre del modelo').fill('Casa Ceiba');
  const added = item(page, 'Casa Ceiba');
  await added.getByLabel('Identificador, en minúsculas y con guiones').fill('casa-ceiba');
  await added.getByLabel('Posición en la página').fill('6');
  await added.getByLabel('Superficie en m²').fill('30');
  await added.getByLabel('Precio "desde", en pesos').fill('450000');
  await added.getByLabel('Personas').fill('3');
  await added.getByLabel('Tiempo de entrega').fill('6 semanas');
  await added.getByLabel('Descripción de la tarjeta').fill('Una casa para tres, con terraza y cocina abierta.');
  const features = added.locator('[id^="features-field"] input');
  for (const feature of ['30 m² con terraza', 'Para 3 personas', 'Entrega en 4 a 6 semanas']) {
    await added.getByRole('button', { name: /Agregar característica/ }).click();
    await features.last().fill(feature);
  }
  await added.getByRole('button', { name: 'Elige una imagen' }).click();
  await page.locator('input[type="file"]').setInputFiles({
    name: 'casa-ceiba.svg',
    mimeType: 'image/svg+xml',
    buffer: readFileSync(path.join(ROOT, 'src/assets/models/lumo.svg')),
  });
  await page.getByRole('button', { name: 'Confirmar selección' }).click();
  await added.getByLabel('Texto alternativo de la imagen').fill('Ilustración del modelo Casa Ceiba');
  await expect(preview.locator('[data-preview-model="casa-ceiba"]')).toContainText('Desde $450,000 MXN');
  await expect(preview.locator('[data-preview-model="casa-ceiba"] img')).toBeVisible();

  // Invalid values are refused with the build's own words: the field's format, then a contradiction.
  const publish = async () => {
    await page.getByRole('button', { name: 'Publicar' }).click();
    await page.getByText('Publicar ahora').click();
  };
  await publish();
  await expect(
    added.getByText(
      'Tiempo de entrega: escribe el plazo con dos números y la unidad, como "4-6 semanas" o "2-4 meses".',
    ),
  ).toBeVisible();
  await added.getByLabel('Tiempo de entrega').clear();
  await added.getByLabel('Tiempo de entrega').fill('6-8 semanas');
  await publish();
  await expect(
    page.getByText('dice "4 a 6 semanas", pero el tiempo de entrega de este modelo (delivery) es "6-8 semanas".', {
      exact: false,
    }),
  ).toBeVisible();
  await features.last().clear();
  await features.last().fill('Entrega en 6 a 8 semanas');
  await publish();
  await expect(page.getByText('CAMBIOS GUARDADOS')).toBeVisible();

  // The files as the build reads them, and the site built from them.
  const saved = JSON.parse(readFileSync(path.join(copy, 'src/data/models.json'), 'utf8')) as {
    models: { id: string; priceFromMxn: number; image: string; delivery: string }[];
  };
  expect(saved.models.find((model) => model.id === 'meridian')?.priceFromMxn).toBe(299000);
  expect(saved.models.at(-1)).toMatchObject({
    id: 'casa-ceiba',
    delivery: '6-8 semanas',
    image: '../assets/models/casa-ceiba.svg',
  });
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: copy,
    encoding: 'utf8',
    // A deploy preview's build: the launch check only warns, and no .br/.gz are written.
    env: { ...process.env, CONTEXT: 'deploy-preview' },
  });
  expect(build.status, build.stderr).toBe(0);
  const modelos = readFileSync(path.join(copy, 'dist/modelos.html'), 'utf8');
  expect(modelos).toContain('Casa Ceiba');
  expect(modelos).toContain('$299,000 MXN');
  expect(modelos).toContain('$450,000 MXN');
});
