import type { Page, Route } from '@playwright/test';
import { PRIVACY_NOTICE_VERSION } from '../../src/data/legal.ts';
import { expect, keptToasts, picture, test, toast, uniqueName, waitForForm } from './fixtures.ts';

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
interface Kept {
  key: string;
  endpoint: string;
  body: string;
  savedAt: number;
  notBefore?: number;
}
const outbox = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('leadOutbox') ?? '[]') as Kept[]);

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
  await picture(page, { path: 'test-results/e2e/sin-senal-390.png' });

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
  // Reloaded to its load event (the page script, which would send what waits at once, has run): no second POST.
  await later.reload();
  expect(posts).toEqual(['/api/quote-requests']);
  expect(await sql('SELECT 1 FROM quote_requests WHERE name = $1', [name])).toHaveLength(1);
  consoleErrors.splice(0);
});

test('a server error (5xx) waits too; a 4xx is shown and never retried', async ({ page, sql, consoleErrors }) => {
  const name = uniqueName('Pasarela');
  const toasts = await keptToasts(page);
  let answers = 0;
  await page.route('**/api/quote-requests', (route) =>
    ++answers === 1
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"x"}' })
      : route.continue(),
  );
  await fillPreFilter(page, name, randomPhone());
  await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
  // The server answered: the visitor goes on to the models, told; /modelos sends what waits.
  await expect(toast(page, 'Solicitud guardada')).toContainText(
    'No pudimos enviarla en este momento: la guardamos en este navegador y la enviaremos en cuanto sea posible.',
  );
  await expect(page).toHaveURL(/\/modelos$/);
  await expect.poll(toasts).toContain('Solicitud enviada');
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
  // Reloaded to its load event: the page script, which would send what waits at once, has run. Nothing again.
  const again: string[] = [];
  page.on('request', (request) => request.url().endsWith('/api/quick-quotes') && again.push(request.method()));
  await page.reload();
  expect(again).toEqual([]);
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
  // Reloaded to its load event: the page script, which would send what waits at once, has run.
  await page.reload();
  expect(posts).toEqual([]);
  await expect(page.getByText('Solicitud pendiente de envío')).toHaveCount(0);
  consoleErrors.splice(0);
});

/** Issue #25: what the visitor is told is true, however the request fails. */
test.describe('the loose ends (issue #25)', () => {
  test('a submission with no answer in 15 s is kept and the visitor told, not left on "Enviando..."', async ({
    page,
    sql,
    consoleErrors,
  }) => {
    const name = uniqueName('Colgada');
    // The first request never gets an answer (a weak signal); the next ones go through.
    let hung: Route | undefined;
    const posts: string[] = [];
    await page.route('**/api/quote-requests', (route) => {
      posts.push(route.request().headers()['idempotency-key'] ?? '');
      if (posts.length > 1) return route.continue();
      hung = route;
      return undefined;
    });
    await page.clock.install();
    await fillPreFilter(page, name, randomPhone());
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    const button = page.getByRole('button', { name: 'Enviando...' });
    await expect(button).toBeDisabled();
    await expect.poll(() => posts.length).toBe(1);

    await page.clock.runFor(15_000);
    await expect(toast(page, 'Solicitud guardada')).toContainText(
      'Tu conexión no respondió: guardamos tu solicitud y la enviaremos en cuanto mejore la señal.',
    );
    await expect(page.getByRole('button', { name: 'Descubre si es tu momento' })).toBeEnabled();
    // No answer at all: the next page would not load either; the visitor stays with the toast.
    await expect(page).toHaveURL(/\/prefiltro$/);
    // This page's sender tries again at once, with the same key: stored once.
    await expect(toast(page, 'Solicitud enviada')).toContainText(
      'Recibimos la solicitud que tenías pendiente de envío.',
    );
    expect(posts).toEqual([posts[0], posts[0]]);
    expect(await sql('SELECT 1 FROM quote_requests WHERE name = $1', [name])).toHaveLength(1);
    expect(await outbox(page)).toEqual([]);
    await hung?.abort().catch(() => {});
    consoleErrors.splice(0); // the browser logs the aborted fetch
  });

  test('a 429 waits for its Retry-After; a partner application sent later says the verdict comes by WhatsApp', async ({
    page,
    sql,
    consoleErrors,
  }) => {
    const name = uniqueName('Socio Paciente');
    const sentAt: number[] = [];
    await page.route('**/api/partner-applications', async (route) => {
      sentAt.push(await page.evaluate(() => Date.now()));
      if (sentAt.length > 1) return route.continue();
      return route.fulfill({
        status: 429,
        headers: { 'Retry-After': '120' },
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Recibimos demasiadas solicitudes desde tu conexión.' }),
      });
    });
    await page.clock.install();
    await page.goto('/prefiltro-socios');
    for (const label of [
      'Desarrollador',
      'Turístico',
      '1,000 a 5,000 m²',
      '$2 a $5 millones',
      'En los próximos 3 meses',
    ]) {
      await page.getByLabel(label, { exact: true }).check();
    }
    await page
      .getByRole('radiogroup', { name: /documentación legal/ })
      .getByLabel('Sí')
      .check();
    await page
      .getByRole('radiogroup', { name: /consultoría/ })
      .getByLabel('Sí')
      .check();
    await page.getByLabel('Estado').selectOption('Quintana Roo');
    await page.getByLabel('Municipio').fill('Tulum');
    await page.getByLabel('Nombre').fill(name);
    await page.getByLabel('Teléfono (WhatsApp)').fill(randomPhone());
    await page.getByRole('button', { name: 'Enviar evaluación' }).click();

    await expect(toast(page, 'Solicitud guardada')).toContainText(
      'No pudimos enviarla en este momento: la guardamos en este navegador y la enviaremos en cuanto sea posible. Un asesor te enviará el resultado de tu evaluación por WhatsApp.',
    );
    const [waiting] = await outbox(page);
    expect((waiting?.notBefore ?? 0) - (waiting?.savedAt ?? 0)).toBe(120_000);
    await expect(page.getByText('Solicitud pendiente de envío')).toBeVisible();

    // A minute later it still waits (the sender's own pauses are shorter than the server's).
    await page.clock.runFor(60_000);
    expect(await outbox(page)).toHaveLength(1);
    await page.clock.runFor(61_000);
    await expect(toast(page, 'Solicitud enviada')).toContainText(
      'Recibimos la evaluación que tenías pendiente de envío. Un asesor te enviará el resultado de tu evaluación por WhatsApp.',
    );
    expect(sentAt).toHaveLength(2);
    expect((sentAt[1] ?? 0) - (sentAt[0] ?? 0)).toBeGreaterThanOrEqual(120_000);
    expect(await sql('SELECT status FROM partner_applications WHERE name = $1', [name])).toEqual([
      { status: 'approved' },
    ]);
    await picture(page, { path: 'test-results/e2e/socio-whatsapp-390.png' });
    consoleErrors.splice(0); // the browser logs the 429
  });

  test('a sixth waiting request is not dropped nor the visitor told it was saved; the five stay', async ({
    page,
    context,
    consoleErrors,
  }) => {
    const name = uniqueName('Sexta');
    await fillPreFilter(page, name, randomPhone());
    await context.setOffline(true);
    const five = await page.evaluate(() => {
      const entries = ['a', 'b', 'c', 'd', 'e'].map((letter) => ({
        key: `espera-${letter}-0001`,
        endpoint: '/api/quick-quotes',
        body: JSON.stringify({ name: `Espera ${letter}`, phone: '9991234567' }),
        savedAt: Date.now(),
      }));
      localStorage.setItem('leadOutbox', JSON.stringify(entries));
      return entries.map((entry) => entry.key);
    });
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    await expect(toast(page, 'No pudimos enviar tu solicitud')).toContainText(
      'Ya hay 5 solicitudes esperando a enviarse desde este navegador. Tus datos siguen en el formulario: inténtalo de nuevo en unos minutos.',
    );
    await expect(toast(page, 'Solicitud guardada')).toHaveCount(0);
    expect((await outbox(page)).map((entry) => entry.key)).toEqual(five);
    await expect(page).toHaveURL(/\/prefiltro$/);
    await expect(page.getByLabel('Nombre de contacto')).toHaveValue(name);
    await picture(page, { path: 'test-results/e2e/sexta-390.png' });
    consoleErrors.splice(0);
  });

  test('without storage in the browser, the visitor is not told the request was saved', async ({
    page,
    context,
    consoleErrors,
  }) => {
    await page.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('El almacenamiento está desactivado.', 'SecurityError');
        },
      });
    });
    const name = uniqueName('Sin Almacenamiento');
    await fillPreFilter(page, name, randomPhone());
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    await expect(toast(page, 'No pudimos enviar tu solicitud')).toContainText(
      'Tu navegador no nos permite guardarla para enviarla después.',
    );
    await expect(toast(page, 'Solicitud guardada')).toHaveCount(0);
    await expect(page.getByText('Solicitud pendiente de envío')).toHaveCount(0);
    await expect(page.getByLabel('Nombre de contacto')).toHaveValue(name);
    consoleErrors.splice(0);
  });

  test('the notice version and acceptance time are those of the press, not of the delivery days later', async ({
    page,
    context,
    sql,
    consoleErrors,
  }) => {
    // The visitor's device pressed send two days ago, without signal; the request reaches us now.
    const pressedAround = Date.now() - 2 * 86_400_000;
    await page.clock.install({ time: pressedAround });
    const name = uniqueName('Días Después');
    await fillPreFilter(page, name, randomPhone());
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    await expect(toast(page, 'Solicitud guardada')).toBeVisible();
    const [waiting] = await outbox(page);
    const sent = JSON.parse(waiting?.body ?? '{}') as { privacy_version?: string; privacy_accepted_at?: string };
    expect(sent.privacy_version).toBe(PRIVACY_NOTICE_VERSION);
    const pressed = Date.parse(sent.privacy_accepted_at ?? '');
    expect(pressed).toBeGreaterThanOrEqual(pressedAround);
    expect(pressed).toBeLessThan(pressedAround + 86_400_000);

    await context.setOffline(false);
    await expect(toast(page, 'Solicitud enviada')).toBeVisible();
    const rows = await sql<{ privacy_version: string; privacy_accepted_at: Date }>(
      'SELECT privacy_version, privacy_accepted_at FROM quote_requests WHERE name = $1',
      [name],
    );
    expect(rows.map((row) => [row.privacy_version, row.privacy_accepted_at.getTime()])).toEqual([
      [PRIVACY_NOTICE_VERSION, pressed],
    ]);
    // Nothing but what the privacy notice lists is kept on the device, and no cookie at all.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    consoleErrors.splice(0);
  });

  test("the privacy notice's cookie section names what is really kept on the device", async ({ page }) => {
    await page.goto('/aviso-de-privacidad');
    const cookies = page.locator('h2:has-text("Cookies y tecnologías similares") + p');
    await expect(cookies).toContainText('no usan cookies');
    await expect(cookies).toContainText('las solicitudes pendientes de envío');
    await expect(cookies).toContainText('tus preferencias del agente de voz');
  });
});
