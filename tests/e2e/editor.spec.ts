import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { PRIVACY_NOTICE_VERSION } from '../../src/data/legal.ts';
import { picture } from './fixtures.ts';

/**
 * Marketing's journey in the content editor (issue #28, decision 0038), in its
 * local mode: `npm run editor` over a copy of the project (the repository is
 * never touched), a price changed, a sixth model added with its photo and
 * seen in the preview, an invalid value refused with the build's own Spanish
 * message, the files saved; then the copy is built once, as a deploy preview
 * without the voice widget's keys: its /modelos shows the change, and no page
 * has the widget. Desktop only: the editor is for a computer.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
let copy: string;
let editor: ChildProcess;
/** The editor's address, on the free port it took. */
let editorUrl: string;

/** The editor is for a computer: the story runs once, in 'desktop' (its own editor and copy). */
const desktop = (info: TestInfo) => info.project.name === 'desktop';

test.beforeAll(async ({ browserName: _ }, info) => {
  if (!desktop(info)) return;
  copy = mkdtempSync(path.join(os.tmpdir(), 'casas-editor-e2e-'));
  for (const item of ['src', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'])
    cpSync(path.join(ROOT, item), path.join(copy, item), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  // The pictures the suite's build rendered, so the copy's build renders only the new photo; a copy, not a
  // link: the new photo's renderings must not land in the repository's cache (decision 0091).
  cpSync(path.join(ROOT, '.cache/astro/assets'), path.join(copy, '.cache/astro/assets'), { recursive: true });
  editor = spawn(process.execPath, ['scripts/editor.ts'], {
    cwd: ROOT,
    env: { ...process.env, EDITOR_PORT: '0', EDITOR_ROOT: copy },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  editorUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    editor.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /Editor de contenido: (http:\/\/\S+\/editor)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    editor.on('exit', (code) => reject(new Error(`npm run editor terminó (${code})`)));
  });
});

test.afterAll(async () => {
  // Its ports are free for the next run (a repeat) only once it and its proxy have exited.
  if (editor && editor.exitCode === null && editor.signalCode === null) {
    const exited = new Promise((resolve) => editor.once('exit', resolve));
    editor.kill('SIGTERM');
    await exited;
  }
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/**
 * Where the story's screenshots go (1280 px, the desktop project's width):
 * the test's own output, or the guide's images with
 * EDITOR_SCREENSHOTS=docs/img (how docs/editar-contenido.md's are made).
 */
function screenshotPath(info: TestInfo, name: string): string {
  const folder = process.env.EDITOR_SCREENSHOTS;
  if (!folder) return info.outputPath(name);
  mkdirSync(path.join(ROOT, folder), { recursive: true });
  return path.join(ROOT, folder, name);
}

/** A tag carrying the voice button's attribute (the inline page script names it as a selector too). */
const VOICE_BUTTON = /<[a-z][^>]*\sdata-voice-button[\s>=]/;

/** The list item whose summary is `name`. */
function item(page: Page, name: string): Locator {
  return page
    .locator('[class*="listControlItem"]')
    .filter({ has: page.locator('[class*="NestedObjectLabel"]', { hasText: new RegExp(`^${name}$`) }) });
}

/**
 * How long a collection's preview may take to appear beside its form: Decap renders it in an iframe
 * when the entry opens, and under the whole suite on two cores the gallery's 17 images once took
 * longer than the 5 s of a plain expect (a full run failed so; the preview was there just after).
 */
const PREVIEW = { timeout: 20_000 };

test('marketing changes a price and adds a model with its photo; the built /modelos shows both, photo included (and, without the voice keys, no voice widget)', async ({
  page,
}, info) => {
  test.skip(!desktop(info), 'the editor is for a computer');
  test.setTimeout(360_000);
  await page.goto(editorUrl);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.getByRole('link', { name: 'Modelos y precios' }).click();

  // A price: Meridian from $319,000 to $299,000, seen in the preview beside the form.
  const meridian = item(page, 'Meridian');
  await meridian.locator('button').first().click();
  await meridian.getByLabel('Precio "desde", en pesos').fill('299000');
  const preview = page.frameLocator('iframe').first();
  await expect(preview.locator('[data-preview-model="meridian"]')).toContainText('Desde $299,000 MXN', PREVIEW);
  await preview.locator('[data-preview-model="meridian"]').scrollIntoViewIfNeeded();
  await picture(page, { path: screenshotPath(info, 'editor-precio.png') });

  // Every control of the form has a Spanish name (decap leaves its list items' buttons and handles nameless).
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .disableRules(['region']) // decap-cms's markup has no landmarks (decision 0051)
    .analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([]);
  await expect(meridian.getByRole('button', { name: 'Quitar «Meridian»' })).toBeVisible();
  await expect(page.getByText(/Expand|Copy Name|Toggle preview/)).toHaveCount(0);

  // One price changed is one line of the file's diff: its key order and layout stay (decision 0051).
  const modelsFile = path.join(copy, 'src/data/models.json');
  const before = readFileSync(modelsFile, 'utf8').split('\n');
  await page.getByRole('button', { name: 'Publicar' }).click();
  await page.getByText('Publicar ahora').click();
  await expect(page.getByText('CAMBIOS GUARDADOS')).toBeVisible();
  const after = readFileSync(modelsFile, 'utf8').split('\n');
  expect(after).toHaveLength(before.length);
  expect(after.filter((line, index) => line !== before[index])).toEqual(['      "priceFromMxn": 299000,']);

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
    // Its own picture: a copy of another model's would be one file in the build (identical files are merged).
    buffer: Buffer.from(
      readFileSync(path.join(ROOT, 'src/assets/models/lumo.svg'), 'utf8').replace(
        '</svg>',
        '<!-- Casa Ceiba --></svg>',
      ),
    ),
  });
  await page.getByRole('button', { name: 'Confirmar selección' }).click();
  await added.getByLabel('Texto alternativo de la imagen').fill('Ilustración del modelo Casa Ceiba');
  await expect(preview.locator('[data-preview-model="casa-ceiba"]')).toContainText('Desde $450,000 MXN');
  await expect(preview.locator('[data-preview-model="casa-ceiba"] img')).toBeVisible();
  await expect(preview.locator('[data-preview-model="casa-ceiba"] img')).toHaveJSProperty('complete', true);
  await preview.locator('[data-preview-model="casa-ceiba"]').scrollIntoViewIfNeeded();
  await picture(page, { path: screenshotPath(info, 'editor-modelo-nuevo.png') });

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
  // The refusal: a list, one line per problem, where the form shows it, in the build's words. decap-cms's toast
  // says it in one line of text; a panel keeps it on screen until it is closed or a save passes.
  await expect(page.locator('.Toastify__toast', { hasText: 'No se pudo guardar la entrada: hay 1 cosa' })).toHaveCount(
    1,
  );
  const refusal = page.getByRole('alert').filter({ hasText: 'No se guardó' });
  await expect(refusal).toContainText(
    '• «Modelos y precios», modelo "casa-ceiba" (núm. 6), «Características (de 3 a 6)», elemento 3: dice "4 a 6 semanas", pero el tiempo de entrega de este modelo (delivery) es "6-8 semanas".',
  );
  await expect(refusal).not.toContainText('Error:');
  // Its lines stay lines.
  await expect(refusal.locator('p')).toHaveCSS('white-space', 'pre-line');
  await picture(page, { path: screenshotPath(info, 'editor-error.png') });
  // On a phone too, the refusal heads the form and covers none of its fields.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(refusal).toBeInViewport();
  const box = await refusal.boundingBox();
  const field = await added.getByLabel('Tiempo de entrega').boundingBox();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(field?.y ?? 0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  await picture(page, { path: info.outputPath('editor-error-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await refusal.getByRole('button', { name: 'Entendido' }).click();
  await expect(refusal).toHaveCount(0);
  await features.last().clear();
  await features.last().fill('Entrega en 6 a 8 semanas');
  await publish();
  await expect(page.getByText('CAMBIOS GUARDADOS')).toBeVisible();

  // The next save is checked against this one, not the files the editor was built with: the home page
  // cannot say "Cinco modelos" now that there are six. Its preview fills the tokens with six.
  // Within the same page (no reload), as marketing goes: the collection, then its entry.
  const open = async (collection: string, entry: string) => {
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/collections/${collection}`);
    await page.getByRole('link', { name: entry }).click();
  };
  await open('paginas', 'Textos de la portada');
  const landingPreview = page.frameLocator('iframe').first();
  await expect(landingPreview.locator('[data-preview-section="hero"]')).toBeVisible(PREVIEW);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 15_000 });
  await picture(page, { path: screenshotPath(info, 'editor-portada.png') });
  const subtitle = page.getByLabel('Subtítulo').first();
  const shipped = await subtitle.inputValue();
  await subtitle.fill('Cinco modelos de casas modulares, listas para tu terreno.');
  await expect(landingPreview.locator('[data-preview-section="hero"]')).toContainText('Cinco modelos de casas');
  await publish();
  await expect(refusal).toContainText('dice "Cinco modelos", pero el catálogo tiene 6 modelos');
  await refusal.getByRole('button', { name: 'Entendido' }).click();
  await subtitle.fill(shipped);

  // The gallery's preview: its 17 images in their order, each with Interior or Exterior.
  await open('catalogo', 'Galería de /modelos (17 imágenes)');
  const galleryPreview = page.frameLocator('iframe').first().locator('[data-preview-image]');
  await expect(galleryPreview).toHaveCount(17, PREVIEW);
  await expect(galleryPreview.first()).toContainText('Interior');
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 15_000 });
  await picture(page, { path: screenshotPath(info, 'editor-galeria.png') });

  // A legal page: its fields from the collection's schema, and its check before saving.
  await open('legal', 'Aviso de privacidad');
  const updated = page.getByLabel('Fecha de la última actualización');
  await expect(updated).toHaveValue(PRIVACY_NOTICE_VERSION);
  await updated.fill('2026-12-01');
  await publish();
  await expect(refusal).toContainText(
    `• «Aviso de privacidad», «Fecha de la última actualización»: la fecha del aviso de privacidad debe ser ${PRIVACY_NOTICE_VERSION}, la versión que guarda cada solicitud`,
  );
  await expect(page.locator('.Toastify__toast')).toHaveCount(0, { timeout: 15_000 });
  await expect(refusal).toBeVisible();
  await picture(page, { path: screenshotPath(info, 'editor-legal.png') });
  expect(readFileSync(path.join(copy, 'src/content/legal/aviso-de-privacidad.md'), 'utf8')).toContain(
    `updated: ${PRIVACY_NOTICE_VERSION}`,
  );

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
  // A deploy preview's build: the launch check only warns, and no .br/.gz are written. Without the voice
  // widget's two keys, as a site whose agent is not set up yet (the suite's own build has them).
  const env: NodeJS.ProcessEnv = { ...process.env, CONTEXT: 'deploy-preview' };
  delete env.PUBLIC_VAPI_PUBLIC_KEY;
  delete env.PUBLIC_VAPI_ASSISTANT_ID;
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: copy,
    encoding: 'utf8',
    env,
  });
  expect(build.status, build.stderr).toBe(0);
  const modelos = readFileSync(path.join(copy, 'dist/modelos.html'), 'utf8');
  expect(modelos).toContain('Casa Ceiba');
  expect(modelos).toContain('$299,000 MXN');
  expect(modelos).toContain('$450,000 MXN');
  // The new model's card shows the uploaded photo: its image, with its description, is a file of the build.
  const card = /<li[^>]*id="casa-ceiba"[\s\S]*?<\/li>/.exec(modelos)?.[0] ?? '';
  const image = /<img[^>]*src="([^"]+)"[^>]*alt="Ilustración del modelo Casa Ceiba"/.exec(card);
  expect(image?.[1]).toMatch(/^\/_astro\/casa-ceiba\.[\w-]+\.webp$/);
  expect(existsSync(path.join(copy, 'dist', image?.[1] ?? ''))).toBe(true);

  // Without its configuration the pages have no voice widget at all: no button, no island.
  for (const built of ['index.html', 'modelos.html', 'prefiltro.html']) {
    const page = readFileSync(path.join(copy, 'dist', built), 'utf8');
    expect(page, built).not.toMatch(VOICE_BUTTON);
    expect(page, built).not.toContain('VoiceWidget');
  }
});
