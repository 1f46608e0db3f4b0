import type { Page } from '@playwright/test';
import { expect, test, toast, uniqueName, waitForForm } from './fixtures.ts';

/**
 * Issue #14: a request that cannot reach us for a network reason waits in
 * the browser's outbox and is stored exactly once when the signal returns,
 * on the same page or on a later visit. Phones: the 390 px project only.
 */
test.beforeEach(({ browserName: _browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'the visitor on a weak signal is on a phone');
});

async function fillPreFilter(page: Page, name: string, phone: string) {
  await page.goto('/prefiltro');
  await page.getByLabel('Nombre de contacto').fill(name);
  await page.getByLabel('Teléfono (WhatsApp)').fill(phone);
  await page.getByLabel('Municipio').fill('Valladolid');
  await page.getByLabel('Ya tengo terreno').check();
  // The island loads at the first touch: ready before the signal goes.
  await waitForForm(page, 'Primer paso hacia tu casa');
}

const randomPhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const outbox = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('leadOutbox') ?? '[]') as { key: string; endpoint: string }[]);

test('submitted without signal: kept, told plainly, pending until the signal returns, then stored once', async ({
  page,
  context,
  sql,
  consoleErrors,
}) => {
  const name = uniqueName('Sin Señal');
  await fillPreFilter(page, name, randomPhone());
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
  await expect(toast(page, 'Solicitud guardada')).toContainText(
    'Sin conexión: guardamos tu solicitud y la enviaremos en cuanto vuelvas a tener señal.',
  );
  await expect(page).toHaveURL(/\/prefiltro$/); // the next page would not load without signal
  await expect(page.getByRole('status').filter({ hasText: 'Solicitud pendiente de envío' })).toBeVisible();
  const [waiting] = await outbox(page);
  expect(waiting?.endpoint).toBe('/api/quote-requests');
  expect(await sql('SELECT 1 FROM quote_requests WHERE name = $1', [name])).toEqual([]);
  await page.screenshot({ path: 'test-results/e2e/sin-senal-390.png' });

  await context.setOffline(false);
  await expect(toast(page, 'Solicitud enviada')).toBeVisible();
  await expect(page.getByText('Solicitud pendiente de envío')).toHaveCount(0);
  expect(await sql('SELECT 1 FROM quote_requests WHERE name = $1', [name])).toHaveLength(1);
  expect(await outbox(page)).toEqual([]);
  // The answers are kept for /modelos as after any success.
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('preFilterData'))) ?? '{}').name).toBe(name);
  consoleErrors.splice(0); // the browser logs the failed fetch
});

test('submitted without signal, page closed: the next visit to any page sends it, once', async ({
  page,
  context,
  sql,
  consoleErrors,
}) => {
  const name = uniqueName('Otra Visita');
  await fillPreFilter(page, name, randomPhone());
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
  await expect(toast(page, 'Solicitud guardada')).toBeVisible();
  await page.close();
  await context.setOffline(false);

  const later = await context.newPage();
  const posts: string[] = [];
  later.on('request', (request) => request.method() === 'POST' && posts.push(new URL(request.url()).pathname));
  await later.goto('/aviso-de-privacidad');
  await expect(toast(later, 'Solicitud enviada')).toBeVisible();
  await later.reload();
  await later.waitForLoadState('networkidle');
  expect(posts).toEqual(['/api/quote-requests']);
  expect(await sql('SELECT 1 FROM quote_requests WHERE name = $1', [name])).toHaveLength(1);
  consoleErrors.splice(0);
});

test('a gateway error (503) waits too; a 4xx is shown and never retried', async ({ page, sql, consoleErrors }) => {
  const name = uniqueName('Pasarela');
  let answers = 0;
  await page.route('**/api/quote-requests', (route) =>
    ++answers === 1
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"x"}' })
      : route.continue(),
  );
  await fillPreFilter(page, name, randomPhone());
  await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
  // Online: the visitor goes on to the models; /modelos sends what waits.
  await expect(page).toHaveURL(/\/modelos$/);
  await expect(toast(page, 'Solicitud enviada')).toBeVisible();
  expect(await sql('SELECT 1 FROM quote_requests WHERE name = $1', [name])).toHaveLength(1);

  // A request the server refuses (here: kept with a phone it does not accept) is shown once and dropped.
  const refused: string[] = [];
  await page.route('**/api/quick-quotes', (route) => {
    refused.push(route.request().method());
    return route.continue();
  });
  await page.evaluate(() =>
    localStorage.setItem(
      'leadOutbox',
      JSON.stringify([
        {
          key: 'clave-de-prueba-400',
          endpoint: '/api/quick-quotes',
          body: JSON.stringify({ name: 'Ana', phone: '123', origin: 'hero' }),
          savedAt: Date.now(),
        },
      ]),
    ),
  );
  await page.reload();
  await expect(toast(page, 'No pudimos enviar tu solicitud guardada')).toBeVisible();
  expect(await outbox(page)).toEqual([]);
  await page.reload();
  await page.waitForLoadState('networkidle');
  expect(refused).toEqual(['POST']);
  consoleErrors.splice(0);
});

test('the outbox forgets requests older than 7 days', async ({ page, consoleErrors }) => {
  await page.goto('/aviso-de-privacidad');
  await page.evaluate(() => {
    const old = Date.now() - 8 * 86_400_000;
    localStorage.setItem(
      'leadOutbox',
      JSON.stringify([{ key: 'vieja-0001', endpoint: '/api/quick-quotes', body: '{}', savedAt: old }]),
    );
  });
  const posts: string[] = [];
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
  await page.reload();
  await page.waitForLoadState('networkidle');
  expect(posts).toEqual([]);
  await expect(page.getByText('Solicitud pendiente de envío')).toHaveCount(0);
  consoleErrors.splice(0);
});
