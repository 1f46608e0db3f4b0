import type { Page } from '@playwright/test';
import bcrypt from 'bcryptjs';
import { startWebhookReceiver } from '../support/receivers.ts';
import { vapiReport } from '../support/vapi.ts';
import { accessibilityViolations, expect, test, toast, uniqueName } from './fixtures.ts';
import { E2E_PORT, E2E_VOICE_SECRET, E2E_WEBHOOK } from './playwright.config.ts';

const ADMIN = { email: 'direccion@ceiba.mx', password: 'mérida-2026-segura' };

/** Signs the story's administrator in through the API (the cookie lands in the page's context). */
async function signIn(page: Page): Promise<void> {
  const answer = await page.request.post('/api/auth/login', {
    data: ADMIN,
    headers: { Origin: `http://127.0.0.1:${E2E_PORT}` },
  });
  expect(answer.status()).toBe(200);
}

// One administrator per database: the story runs once, in order, in the desktop
// project only (see playwright.config.ts), and checks the panel at 390 px on the way.
// Each story is long (up to about 25 s alone, with axe checks at each step): Playwright's default
// 30 s bound for a whole test is too tight when the machine is busy, and a bound is not an assertion.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test('the whole administrator story', async ({ page, sql, consoleErrors }) => {
  // The database is fresh every run (fresh-server.ts). For a repeat (--repeat-each with one worker) the
  // story removes only the setup's mark and its own administrator: never the members that stories running
  // beside it (day.spec) are signed in as.
  await sql('DELETE FROM first_admin_setup');
  await sql('DELETE FROM users WHERE email = $1', [ADMIN.email]);
  await sql('DELETE FROM login_failures');

  // No session: /admin sends to /auth, which offers the one-time setup.
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByText('Configura la cuenta de administrador por única vez')).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill('corta');
  await page.getByRole('button', { name: 'Configurar Administrador' }).click();
  await expect(page.getByText('Usa al menos 8 caracteres.')).toBeVisible();
  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Configurar Administrador' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toast(page, 'Configuración exitosa')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Panel de Administración' })).toBeVisible();

  // Leads arrive through the public endpoints, one of them hostile.
  const quote = uniqueName('Cliente');
  const run = Math.random().toString(36).slice(2, 8);
  const hostile = `<script>alert("${run}")</script>`;
  const formula = `=HYPERLINK("http://evil.example/${run}")`;
  for (const [path, body] of [
    [
      '/api/quote-requests',
      { source: 'prefiltro', name: quote, phone: '9991234567', municipality: 'Mérida', land_option: 'tengo-terreno' },
    ],
    ['/api/quote-requests', { source: 'estimacion', name: hostile, phone: '9991234568', terrain_size: 300 }],
    [
      '/api/partner-applications',
      {
        name: formula,
        phone: '9991234569',
        role: 'desarrollador',
        municipality: 'Tulum',
        investment: '5m+',
        timeline: '0-3-meses',
        legal_documentation: 'si',
        consultancy_payment: 'si',
      },
    ],
    ['/api/quick-quotes', { name: "Robert'); DROP TABLE users;--", phone: '9991234570', origin: 'hero' }],
  ] as const) {
    expect((await page.request.post(path, { data: body })).status()).toBe(201);
  }
  await page.reload();
  // "Hoy" is the default view (issue #26); the requests by form are one click away, their view in the address.
  await expect(page.getByRole('heading', { name: 'Hoy', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Hoy', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('link', { name: /^Solicitudes \(\d+\)$/ }).click();
  await expect(page).toHaveURL(/\/admin\?vista=solicitudes$/);
  const quotesTab = page.getByRole('tab', { name: /^Cotizaciones de Casas \(\d+\)$/ });
  await expect(quotesTab).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('cell', { name: hostile, exact: true })).toBeVisible(); // shown as text, never run
  const quoteCount = Number((await quotesTab.textContent())?.match(/\((\d+)\)/)?.[1]);
  expect(quoteCount).toBeGreaterThanOrEqual(2);
  await expect(panel.getByRole('row').filter({ hasText: quote })).toContainText('Ya tengo terreno');

  // Partner tab: the score as a percentage and the status label.
  await quotesTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /^Solicitudes de Socios/ })).toHaveAttribute('aria-selected', 'true');
  const partnerRow = panel.getByRole('row').filter({ hasText: formula });
  await expect(partnerRow).toContainText('100%');
  await expect(partnerRow).toContainText('Aprobado');

  // CSV of the partner tab: the formula is neutralised.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('link', { name: 'Descargar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('solicitudes_socios.csv');
  const csv = await (await download.createReadStream())
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(csv.startsWith('\uFEFFFecha,Nombre,Teléfono,Rol')).toBe(true);
  expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/${run}"")"`);

  // Delete one quote after confirming.
  await page.getByRole('tab', { name: /^Cotizaciones de Casas/ }).click();
  page.once('dialog', (dialog) => dialog.accept());
  await panel.getByRole('button', { name: `Eliminar solicitud de ${quote}` }).click();
  await expect(toast(page, 'Cotización eliminada')).toBeVisible();
  await expect(panel.getByRole('row').filter({ hasText: quote })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: `Cotizaciones de Casas (${quoteCount - 1})` })).toBeVisible();
  expect(await sql('SELECT 1 FROM quote_requests WHERE name = $1', [quote])).toHaveLength(0);

  // Dismissing the confirmation deletes nothing.
  page.once('dialog', (dialog) => dialog.dismiss());
  await panel.getByRole('button', { name: `Eliminar solicitud de ${hostile}` }).click();
  await expect(panel.getByRole('cell', { name: hostile, exact: true })).toBeVisible();

  // The panel at 390 px: the table scrolls inside its own region, the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Sign out, then the login form; a wrong password gets the toast of docs/product.md §12.4.
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: 'Ingresar' })).toBeVisible();
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill('no-es-la-contraseña');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(toast(page, 'Error de acceso')).toContainText('Credenciales incorrectas');
  expect(consoleErrors.splice(0)).toEqual([expect.stringContaining('401')]);

  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toast(page, 'Acceso exitoso')).toContainText('Bienvenido al panel de administración');
});

test('the follow-up story: one prospect from three forms, state, note, next contact, search, filters, CSV, a stale change', async ({
  page,
  sql,
  consoleErrors,
}) => {
  await signIn(page);

  // Three submissions from one phone, written three ways, through three forms.
  const digits = `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const name = uniqueName('Lucía Chablé');
  const sends: [string, object][] = [
    ['/api/quick-quotes', { name, phone: digits, origin: 'hero', utm_campaign: 'mérida-otoño' }],
    [
      '/api/quote-requests',
      {
        source: 'prefiltro',
        name,
        phone: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`,
        municipality: 'Mérida',
        land_option: 'tengo-terreno',
      },
    ],
    [
      '/api/partner-applications',
      {
        name,
        phone: `+52 ${digits}`,
        role: 'inversionista',
        municipality: 'Mérida',
        investment: '1-2m',
        timeline: '3-6-meses',
        legal_documentation: 'si',
        consultancy_payment: 'no',
      },
    ],
  ];
  for (const [path, data] of sends) expect((await page.request.post(path, { data })).status()).toBe(201);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto('/admin?vista=prospectos');
    const search = page.getByLabel('Buscar por nombre, teléfono, correo o municipio');
    // Without and with accents, and the phone in three formats: always this one person.
    for (const term of [
      name.replace('í', 'i').replace('é', 'e'),
      name,
      digits,
      `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`,
      `+52 ${digits}`,
    ]) {
      await search.fill(term);
      await expect(page.getByRole('status').filter({ hasText: /prospectos?$/ })).toHaveText('1 prospecto');
      await expect(page.getByRole('link', { name })).toBeVisible();
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await accessibilityViolations(page)).toEqual([]);
  }
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
  await expect(card).toContainText('3 solicitudes · Comprador y Socio');
  // The phone as a person reads it.
  await expect(card).toContainText(`${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`);
  await expect(card).toContainText('Nuevo');

  // The contact page at 390 px: three entries, then the team's follow-up.
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/admin\/prospecto\?id=[0-9a-f-]{36}$/);
  const contactUrl = page.url();
  await expect(page.getByRole('heading', { name: /^Solicitud: / })).toHaveCount(3);
  await expect(page.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute(
    'href',
    new RegExp(`^https://wa\\.me/52${digits}\\?text=`),
  );
  await expect(
    page.getByRole('link', { name: `Llamar ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` }),
  ).toHaveAttribute('href', `tel:+52${digits}`);
  expect(await accessibilityViolations(page)).toEqual([]);

  // Another adviser has the same page open.
  const other = await page.context().newPage();
  await other.goto(contactUrl);
  await expect(other.getByRole('heading', { name: 'Conversación e historial' })).toBeVisible();

  await page.getByLabel('Estado').selectOption('contactado');
  await page.getByLabel('Próximo contacto (hora de Mérida)').fill('2030-01-15T10:00');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(toast(page, 'Cambios guardados')).toBeVisible();
  const hostile = '<script>alert("nota")</script> Llamar después de las 5';
  await page.getByLabel('Nota', { exact: true }).fill(hostile);
  await page.getByRole('button', { name: 'Agregar nota' }).click();
  await expect(toast(page, 'Nota agregada')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Estado')).toHaveValue('contactado');
  await expect(page.getByLabel('Próximo contacto (hora de Mérida)')).toHaveValue('2030-01-15T10:00');
  await expect(page.getByText(hostile, { exact: true })).toBeVisible(); // text, never run
  await expect(page.getByText('Estado: Nuevo → Contactado')).toBeVisible();
  // The history names who made the change.
  await expect(
    page.getByRole('listitem').filter({ hasText: 'Estado: Nuevo → Contactado' }).getByText(ADMIN.email),
  ).toBeVisible();

  // The other adviser's change was made on the old version: the panel says so, nothing is overwritten.
  await other.getByLabel('Estado').selectOption('en_seguimiento');
  await other.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(
    other
      .getByRole('alert')
      .filter({ hasText: 'Otra persona actualizó este prospecto. Recarga para ver los cambios.' }),
  ).toBeVisible();
  await other.getByRole('button', { name: 'Recargar' }).click();
  await expect(other.getByLabel('Estado')).toHaveValue('contactado');
  await other.close();
  const [stored] = await sql<{ state: string; version: number }>(
    'SELECT state, version FROM contacts WHERE phone = $1',
    [`+52${digits}`],
  );
  expect(stored).toEqual({ state: 'contactado', version: 2 });

  // Filters and counts at 1280 px, then the CSV of what the filters show.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin?vista=prospectos');
  await page.getByLabel('Buscar por nombre, teléfono, correo o municipio').fill(digits);
  await expect(page.getByRole('button', { name: 'Contactado (1)' })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo (0)' }).click();
  await expect(page.getByText('Ningún prospecto coincide con la búsqueda o los filtros.')).toBeVisible();
  await page.getByRole('button', { name: 'Contactado (1)' }).click();
  await expect(page.getByRole('link', { name })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Descargar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('prospectos.csv');
  const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(name);
  expect(lines[1]).toContain('Contactado');
  expect(lines[1]).toContain('2030-01-15 10:00');
  expect(lines[1]).toContain(',3,mérida-otoño,');
  expect(lines[1]).toContain(hostile.replaceAll('"', '""'));
  consoleErrors.splice(0);
});

test('the notifications story: a failed webhook shown per request, Reintentar once the receiver is up, a test message', async ({
  page,
  sql,
  consoleErrors,
}) => {
  await signIn(page);
  const name = uniqueName('Rosa Ek');
  const answer = await page.request.post('/api/quick-quotes', {
    data: { name, phone: `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, origin: 'hero' },
  });
  expect(answer.status()).toBe(201);
  const { id } = (await answer.json()) as { id: string };
  // Nobody listens on the webhook's port yet: the first attempt and its one retry fail.
  await expect
    .poll(
      async () =>
        (await sql<{ status: string }>('SELECT status FROM notification_deliveries WHERE lead_id = $1', [id]))[0]
          ?.status,
      {
        timeout: 20_000,
      },
    )
    .toBe('failed');

  await page.goto('/admin#solicitudes');
  await page.getByRole('tab', { name: /Cotizaciones rápidas/ }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('Webhook: falló')).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  const receiver = await startWebhookReceiver(E2E_WEBHOOK.secret, E2E_WEBHOOK.port);
  try {
    await row.getByRole('button', { name: 'Reintentar webhook' }).click();
    await expect(toast(page, 'Reintento en camino')).toBeVisible();
    await expect
      .poll(() => receiver.accepted.filter((request) => request.headers['x-ceiba-delivery'] === id).length, {
        timeout: 20_000,
      })
      .toBe(1);
    await page.reload();
    await page.getByRole('tab', { name: /Cotizaciones rápidas/ }).click();
    await expect(page.getByRole('row').filter({ hasText: name }).getByText('Webhook: enviada')).toBeVisible();

    // The Notificaciones page: channels without secrets, the last delivery, a test message.
    await page.getByRole('link', { name: 'Notificaciones' }).click();
    await expect(page).toHaveURL(/\?vista=notificaciones$/);
    const webhookCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Webhook' }) });
    await expect(webhookCard.getByText('Activo')).toBeVisible();
    await expect(webhookCard).toContainText(`Destino: 127.0.0.1:${E2E_WEBHOOK.port}`);
    await expect(
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Correo' }) }),
    ).toContainText('Inactivo');
    await expect(page.getByText(E2E_WEBHOOK.secret)).toHaveCount(0);
    await expect(page.getByText('Último envío')).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);
    await webhookCard.getByRole('button', { name: 'Enviar prueba' }).click();
    await expect(toast(page, 'Prueba en camino')).toBeVisible();
    await expect
      .poll(() => receiver.accepted.filter((request) => request.json.event === 'notification.test').length, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(1);
    await page.screenshot({ path: 'test-results/e2e/notificaciones-1280.png', fullPage: true });

    // Advisers use phones: the page fits 390 px without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Canales' })).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/notificaciones-390.png', fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The contact's page shows the request's delivery too.
    const [contact] = await sql<{ contact_id: string }>('SELECT contact_id FROM cotizaciones_rapidas WHERE id = $1', [
      id,
    ]);
    await page.goto(`/admin/prospecto?id=${contact?.contact_id}`);
    await expect(page.getByText('Webhook: enviada')).toBeVisible();
  } finally {
    await receiver.close();
  }
  expect(consoleErrors).toEqual([]);
});

test('the calls story: a finished call in Llamadas, its conversation, and the contact it joined', async ({
  page,
  consoleErrors,
}) => {
  await signIn(page);
  const name = uniqueName('Ana Canché');
  const report = vapiReport(`e2e-${Date.now()}`, {
    nombre: name,
    telefono: `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    interes: 'Modelo Ceiba, 2 recámaras',
  });
  const answer = await page.request.post('/api/voice/events', {
    data: report,
    headers: { Authorization: `Bearer ${E2E_VOICE_SECRET}` },
  });
  expect(answer.status()).toBe(200);

  await page.goto('/admin#llamadas');
  const item = page.getByRole('listitem').filter({ hasText: name });
  await expect(item).toContainText('3 min 16 s · El visitante colgó');
  await expect(item).toContainText('Ana quiere el modelo Ceiba');
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/e2e/llamadas-1280.png', fullPage: true });

  await item.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name: `Llamada de ${name}` })).toBeVisible();
  const conversation = page.getByRole('list').filter({ hasText: 'Quiero saber el precio de la casa Ceiba.' });
  await expect(conversation.getByRole('listitem')).toHaveCount(4);
  await expect(page.getByRole('link', { name: 'Escuchar la grabación' })).toHaveAttribute(
    'href',
    'https://storage.vapi.ai/3f9c2b7e-mono.wav',
  );
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/e2e/llamada-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('link', { name: 'Ver prospecto' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Llamada con el agente de voz · 3 min 16 s/ })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('a person’s rights (ARCO): their data downloaded, then the person erased after a confirmation', async ({
  page,
  sql,
  consoleErrors,
}) => {
  await signIn(page);
  const name = uniqueName('Persona Arco');
  const phone = `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const lead = await page.request.post('/api/quick-quotes', { data: { name, phone, origin: 'hero', marketing: 'si' } });
  const { id: leadId } = (await lead.json()) as { id: string };
  const [row] = await sql<{ contact_id: string }>('SELECT contact_id FROM cotizaciones_rapidas WHERE id = $1', [
    leadId,
  ]);
  const contactId = row?.contact_id as string;

  await page.goto(`/admin/prospecto?id=${contactId}`);
  // The consent the person gave, in their request.
  await expect(page.getByText('Acepta promociones:').first()).toBeVisible();
  const section = page.getByRole('region', { name: 'Datos personales (derechos ARCO)' });
  const download = page.waitForEvent('download');
  await section.getByRole('link', { name: 'Descargar datos (JSON)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`datos-${contactId.slice(0, 8)}.json`);

  await section.getByRole('button', { name: 'Eliminar a esta persona' }).click();
  const dialog = page.getByRole('dialog', { name: `¿Eliminar a ${name}?` });
  await expect(dialog).toContainText('Se borrarán 1 solicitud, 0 llamadas, 0 notas, su historial y sus avisos.');
  expect(await accessibilityViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();
  expect(await sql('SELECT 1 FROM contacts WHERE id = $1', [contactId])).toHaveLength(1);

  await section.getByRole('button', { name: 'Eliminar a esta persona' }).click();
  await dialog.getByRole('button', { name: 'Eliminar todo' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toast(page, 'Persona eliminada')).toBeVisible();
  expect(await sql('SELECT 1 FROM contacts WHERE id = $1', [contactId])).toEqual([]);
  expect(await sql('SELECT 1 FROM cotizaciones_rapidas WHERE phone = $1', [`+52${phone}`])).toEqual([]);
  await page.goto('/admin#actividad');
  await expect(
    // The newest line first: a database kept from earlier local runs holds their lines too.
    page.getByText(/Eliminó a petición suya todos los datos de una persona: 1 solicitud, 0 llamadas y 0 notas/).first(),
  ).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('the team story: an adviser invited, accepting at 390 px, working a contact as themselves, kept from what only administrators do, then deactivated', async ({
  page,
  browser,
  sql,
  consoleErrors,
}) => {
  await signIn(page);
  await page.goto('/admin#equipo');
  const adviserEmail = `asesora-${Date.now()}@ceiba.mx`;
  const adviserName = uniqueName('Marisol Ek');
  await page.getByLabel('Correo electrónico').fill(adviserEmail);
  await page.getByLabel('Rol').selectOption('asesor');
  await page.getByRole('button', { name: 'Crear invitación' }).click();
  const link = await page.getByLabel('Enlace de invitación').inputValue();
  expect(link).toMatch(/\/auth\/invitacion#[A-Za-z0-9_-]{43}$/);
  await expect(page.getByText(adviserEmail).first()).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  // A lead for the adviser to work.
  const name = uniqueName('Julia May');
  const lead = await page.request.post('/api/quick-quotes', {
    data: { name, phone: `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, origin: 'hero' },
  });
  const { id: leadId } = (await lead.json()) as { id: string };
  const [contact] = await sql<{ contact_id: string }>('SELECT contact_id FROM cotizaciones_rapidas WHERE id = $1', [
    leadId,
  ]);

  // The adviser, on a phone, accepts the invitation.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const adviser = await phone.newPage();
  await adviser.goto(link);
  await expect(adviser.getByRole('heading', { name: 'Únete al equipo' })).toBeVisible();
  await expect(adviser.getByText(adviserEmail)).toBeVisible();
  expect(await accessibilityViolations(adviser)).toEqual([]);
  await adviser.getByLabel('Tu nombre').fill(adviserName);
  await adviser.getByLabel('Contraseña').fill('asesora-2026-segura');
  await adviser.getByRole('button', { name: 'Crear mi cuenta' }).click();
  await expect(adviser).toHaveURL(/\/admin$/);
  await expect(adviser.getByRole('link', { name: 'Prospectos' })).toBeVisible();
  await expect(adviser.getByRole('link', { name: 'Mi cuenta' })).toBeVisible();
  for (const hidden of ['Solicitudes', 'Notificaciones', 'Equipo', 'Actividad']) {
    await expect(adviser.getByRole('link', { name: new RegExp(`^${hidden}`) })).toHaveCount(0);
  }
  await expect(adviser.getByRole('link', { name: 'Descargar CSV' })).toHaveCount(0);
  await adviser.screenshot({ path: 'test-results/e2e/asesor-390.png', fullPage: true });
  expect(await adviser.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The adviser changes the contact's state: the history shows their name.
  await adviser.goto(`/admin/prospecto?id=${contact?.contact_id}`);
  await adviser.getByLabel('Estado').selectOption('contactado');
  await adviser.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(toast(adviser, 'Cambios guardados')).toBeVisible();
  await expect(adviser.getByRole('listitem').filter({ hasText: adviserName }).first()).toBeVisible();
  // Notes: the adviser deletes their own, not the administrator's (no «Eliminar» on it).
  const adminNote = await page.request.post(`/api/admin/contacts/${contact?.contact_id}/notes`, {
    data: { body: 'Nota del administrador: revisar crédito' },
    headers: { Origin: `http://127.0.0.1:${E2E_PORT}` },
  });
  expect(adminNote.status()).toBe(201);
  await adviser.reload();
  await adviser.getByLabel('Nota', { exact: true }).fill('Pidió que le llamen el lunes');
  await adviser.getByRole('button', { name: 'Agregar nota' }).click();
  await expect(toast(adviser, 'Nota agregada')).toBeVisible();
  const notes = adviser.getByRole('listitem');
  const mine = notes.filter({ hasText: 'Pidió que le llamen el lunes' });
  const theirs = notes.filter({ hasText: 'Nota del administrador: revisar crédito' });
  await expect(theirs).toBeVisible();
  await expect(theirs.getByRole('button', { name: /^Eliminar nota/ })).toHaveCount(0);
  await adviser.screenshot({ path: 'test-results/e2e/notas-asesor-390.png', fullPage: true });
  adviser.once('dialog', (dialog) => dialog.accept());
  await mine.getByRole('button', { name: /^Eliminar nota/ }).click();
  await expect(toast(adviser, 'Nota eliminada')).toBeVisible();
  await expect(adviser.getByRole('button', { name: /^Eliminar nota/ })).toHaveCount(0);
  await expect(adviser.getByText('Nota eliminada: «Pidió que le llamen el lunes»')).toBeVisible();

  // What only administrators do, the server refuses.
  const exportAnswer = await adviser.request.get('/api/admin/contacts/export.csv');
  expect(exportAnswer.status()).toBe(403);
  const deleteAnswer = await adviser.request.delete(`/api/admin/quick-quotes/${leadId}`, {
    headers: { Origin: `http://127.0.0.1:${E2E_PORT}` },
  });
  expect(deleteAnswer.status()).toBe(403);

  // The administrator deactivates the adviser: their session ends at once.
  await page.goto('/admin#equipo');
  await page.reload();
  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: `Desactivar a ${adviserName}` }).click();
  await expect(page.getByRole('button', { name: `Reactivar a ${adviserName}` })).toBeVisible();
  await adviser.goto('/admin');
  await expect(adviser).toHaveURL(/\/auth$/);

  // The activity page shows who did what.
  await page.goto('/admin#actividad');
  await expect(page.getByText(`Desactivó la cuenta de ${adviserName}`)).toBeVisible();
  await expect(page.getByText(`${adviserName} aceptó la invitación como asesor`)).toBeVisible();
  await expect(page.getByText(`Eliminó una nota de ${name}`)).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/e2e/actividad-1280.png', fullPage: true });
  await phone.close();
  expect(consoleErrors).toEqual([]);
});

test('passkeys: added in "Mi cuenta" with Chromium’s virtual authenticator, then used to sign in instead of the password', async ({
  page,
  consoleErrors,
}) => {
  // A passkey belongs to a domain name: the site is opened as localhost (an IP address cannot hold one).
  const origin = `http://localhost:${E2E_PORT}`;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const login = await page.request.post(`${origin}/api/auth/login`, { data: ADMIN, headers: { Origin: origin } });
  expect(login.status()).toBe(200);
  await page.goto(`${origin}/admin#cuenta`);
  await expect(page.getByText('Todavía no tienes llaves de acceso.')).toBeVisible();
  await page.getByLabel('Nombre de la llave').fill('Laptop de la oficina');
  await page.getByRole('button', { name: 'Agregar llave de acceso' }).click();
  await expect(toast(page, 'Llave de acceso agregada')).toBeVisible();
  await expect(page.getByText(/Laptop de la oficina · creada el/)).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Panel de Administración' })).toBeVisible();
  await page.goto(`${origin}/admin#cuenta`);
  await expect(page.getByText(/Laptop de la oficina · creada el .* · último uso/)).toBeVisible();

  // From this passkey session, the administrator requires passkeys for administrators.
  await page.goto(`${origin}/admin#equipo`);
  const requirement = page.getByRole('checkbox', { name: /Exigir llave de acceso a los administradores/ });
  await requirement.click(); // saved on the server first, then shown checked
  await expect(toast(page, 'Los administradores deberán entrar con su llave de acceso')).toBeVisible();
  await expect(requirement).toBeChecked();
  expect(await accessibilityViolations(page)).toEqual([]);

  // The password alone now reaches only "Mi cuenta", with the reason; the server refuses the rest.
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(/Tu equipo exige que los administradores entren con una llave de acceso/)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Vistas del panel' }).getByRole('link')).toHaveText(['Mi cuenta']);
  await expect(page.getByRole('heading', { name: 'Cambiar contraseña' })).toBeVisible();
  expect((await page.request.get(`${origin}/api/admin/contacts`)).status()).toBe(403);
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/e2e/llave-exigida-1280.png', fullPage: true });

  // With the passkey, the whole panel again; the requirement is turned off for the stories after this one.
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
  await expect(page.getByRole('link', { name: 'Equipo' })).toBeVisible();
  await page.goto(`${origin}/admin#equipo`);
  await requirement.click();
  await expect(toast(page, 'Ya no se exige llave de acceso')).toBeVisible();
  await expect(requirement).not.toBeChecked();
  expect(consoleErrors).toEqual([]);
});

test('a signed-in user without the admin role is refused and sent home', async ({ page, sql, consoleErrors }) => {
  const hash = await bcrypt.hash('vendedor-2026', 4);
  await sql(
    `INSERT INTO users (email, password_hash) VALUES ('vendedor@ceiba.mx', $1) ON CONFLICT (email) DO NOTHING`,
    [hash],
  );
  await page.goto('/auth');
  await page.getByLabel('Correo electrónico').fill('vendedor@ceiba.mx');
  await page.getByLabel('Contraseña').fill('vendedor-2026');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, 'Acceso denegado')).toContainText(
    'No tienes permisos para acceder al panel de administración',
  );
  consoleErrors.splice(0);
});

test('the adviser’s day at 390 px: Hoy first, a figure opens its list, filters and scroll survive Back and the back link', async ({
  page,
  sql,
}) => {
  // Eighteen views looked at and eleven axe checks: longer than the file's 120 s bound when the machine is busy.
  test.setTimeout(240_000);
  await signIn(page);
  const [me] = await sql<{ id: string }>('SELECT id FROM users WHERE email = $1', [ADMIN.email]);
  // This story's own contacts are the only ones assigned to the administrator ("Mis prospectos").
  await sql('UPDATE contacts SET assigned_to = NULL WHERE assigned_to = $1', [me?.id]);
  const run = Math.random().toString(36).slice(2, 8);
  const base = Math.floor(Math.random() * 1e5) * 100; // seven digits after 999, room for this story's 30
  const made: { name: string; state: string; nextInDays: number | null; createdHoursAgo: number }[] = [
    ...[3, 2, 1].map((days, i) => ({
      name: `Día ${run} vencido ${i}`,
      state: 'contactado',
      nextInDays: -days,
      createdHoursAgo: 300,
    })),
    ...[0, 1].map((i) => ({ name: `Día ${run} hoy ${i}`, state: 'contactado', nextInDays: 0, createdHoursAgo: 300 })),
    ...Array.from({ length: 10 }, (_, i) => ({
      name: `Día ${run} nuevo ${i}`,
      state: 'nuevo',
      nextInDays: null,
      createdHoursAgo: 100 - i,
    })),
    ...Array.from({ length: 10 }, (_, i) => ({
      name: `Día ${run} luego ${i}`,
      state: 'contactado',
      nextInDays: 3 + i,
      createdHoursAgo: 300,
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      name: `Día ${run} sin fecha ${i}`,
      state: 'en_seguimiento',
      nextInDays: null,
      createdHoursAgo: 300,
    })),
  ];
  for (const [i, contact] of made.entries()) {
    await sql(
      `INSERT INTO contacts (phone, name, is_buyer, state, next_contact_at, assigned_to, created_at, last_activity_at)
       VALUES ($1, $2, true, $3,
               ((now() AT TIME ZONE 'America/Merida')::date + $4::int + time '10:00') AT TIME ZONE 'America/Merida', $5,
               now() - make_interval(hours => $6), now() - make_interval(mins => $7))`,
      [
        `+52999${String(base + i).padStart(7, '0')}`,
        contact.name,
        contact.state,
        contact.nextInDays,
        me?.id,
        contact.createdHoursAgo,
        i,
      ],
    );
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Hoy', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Mis prospectos' }).click();
  await expect(page).toHaveURL(/\/admin\?alcance=mios$/);
  // Sections in the day's order, each heading counting what it lists (the first page: 10 a section).
  await expect(page.getByRole('heading', { level: 3 })).toHaveText([
    'Contactos vencidos (3)',
    'Para hoy (2)',
    'Nuevos sin atender (10)',
    'Los demás en seguimiento (15)',
  ]);
  const rest = page.getByRole('region', { name: 'Los demás en seguimiento (15)' });
  await expect(rest.getByRole('listitem')).toHaveCount(10);
  await expect(rest.getByText('Mostrando 10 de 15')).toBeVisible();
  await rest.getByRole('button', { name: 'Cargar más' }).click();
  await expect(rest.getByRole('listitem')).toHaveCount(15);
  await expect(rest.getByText(/^Mostrando/)).toHaveCount(0);
  const overdue = page.getByRole('region', { name: 'Contactos vencidos (3)' }).getByRole('listitem');
  await expect(overdue).toHaveCount(3);
  await expect(overdue.first()).toContainText(`Día ${run} vencido 0`);
  const fresh = page.getByRole('region', { name: 'Nuevos sin atender (10)' }).getByRole('listitem');
  await expect(fresh.first()).toContainText(`Día ${run} nuevo 0`); // the oldest first
  const local = String(base + 5).padStart(7, '0');
  await expect(fresh.first()).toContainText(`999 ${local.slice(0, 3)} ${local.slice(3)}`); // "999 100 0000"
  expect(await accessibilityViolations(page)).toEqual([]);

  // A contact opened from "Hoy" goes back to "Hoy", still "Mis prospectos".
  await overdue.first().getByRole('link').click();
  await page.getByRole('link', { name: '← Hoy' }).click();
  await expect(page).toHaveURL(/\/admin\?alcance=mios$/);
  await expect(page.getByRole('button', { name: 'Mis prospectos' })).toHaveAttribute('aria-pressed', 'true');

  // The figure opens the list it counts.
  await page.getByRole('link', { name: /^3\s*Vencidos$/ }).click();
  await expect(page).toHaveURL(/\/admin\?vista=prospectos&agenda=vencidos&assigned=me$/);
  await expect(page.getByRole('status').filter({ hasText: /prospectos?$/ })).toHaveText('3 prospectos');
  await expect(page.getByRole('link', { name: new RegExp(`^Día ${run} vencido`) })).toHaveCount(3);
  await page.getByRole('button', { name: /Quitar el filtro/ }).click();
  await expect(page).toHaveURL(/\/admin\?vista=prospectos&assigned=me$/);

  // Search and a chip: both in the address.
  await page.getByLabel('Buscar por nombre, teléfono, correo o municipio').fill(`Día ${run}`);
  await page.getByRole('button', { name: /^Contactado/ }).click();
  await expect(page).toHaveURL(/state=contactado/);
  await expect(page).toHaveURL(/q=D%C3%ADa/);
  await expect(page.getByRole('status').filter({ hasText: /prospectos?$/ })).toHaveText('15 prospectos');
  const listUrl = page.url();
  const deep = page.getByRole('link', { name: `Día ${run} luego 8` });
  await deep.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 120));
  const scrolled = await page.evaluate(() => Math.round(window.scrollY));
  expect(scrolled).toBeGreaterThan(1000);
  expect(await accessibilityViolations(page)).toEqual([]);

  const samePlace = async () => {
    await expect(page).toHaveURL(listUrl);
    await expect(page.getByLabel('Buscar por nombre, teléfono, correo o municipio')).toHaveValue(`Día ${run}`);
    await expect(page.getByRole('button', { name: /^Contactado/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Mis prospectos' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(scrolled);
  };

  // Browser Back from the contact.
  await deep.click();
  await expect(page).toHaveURL(/\/admin\/prospecto\?id=/);
  await expect(page.getByRole('heading', { name: `Día ${run} luego 8` })).toBeVisible();
  await page.goBack();
  await samePlace();

  // The contact page's own back link (44 px tall), to the same list.
  await page.getByRole('link', { name: `Día ${run} luego 8` }).click();
  const back = page.getByRole('link', { name: '← Prospectos' });
  const box = await back.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(44);
  expect(box?.width).toBeGreaterThanOrEqual(44);
  expect(await accessibilityViolations(page)).toEqual([]);
  await back.click();
  await samePlace();

  // Every view of the panel fits a 360 px phone; the new and changed ones are axe-clean at both sizes
  // (on this story's own lists: axe over a database kept from earlier runs takes minutes).
  const checked: Record<string, string> = {
    hoy: '/admin?vista=hoy&alcance=mios',
    prospectos: `/admin?vista=prospectos&assigned=me&q=${encodeURIComponent(`Día ${run} vencido`)}`,
    metricas: '/admin?vista=metricas',
    solicitudes: '/admin?vista=solicitudes',
  };
  const views = [
    'hoy',
    'prospectos',
    'embudo',
    'llamadas',
    'metricas',
    'solicitudes',
    'notificaciones',
    'equipo',
    'actividad',
    'cuenta',
  ];
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const view of views) {
      await page.goto(checked[view] ?? `/admin?vista=${view}`);
      await expect(page.getByRole('link', { name: 'Hoy', exact: true })).toBeVisible();
      await expect(page.getByText(/^Cargando/)).toHaveCount(0);
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const root = document.scrollingElement as Element;
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
      });
      expect(scrollWidth, `${view} at ${width} px`).toBeLessThanOrEqual(clientWidth);
      if (checked[view]) {
        await page.screenshot({ path: test.info().outputPath(`${view}-${width}.png`) });
        expect(await accessibilityViolations(page), `${view} at ${width} px`).toEqual([]);
      }
    }
  }
  await sql('UPDATE contacts SET assigned_to = NULL WHERE assigned_to = $1', [me?.id]);
});
