import { startWebhookReceiver } from '../support/receivers.ts';
import { vapiReport } from '../support/vapi.ts';
import { signInAsNewAdmin } from './admins.ts';
import { accessibilityViolations, expect, picture, test, toast, uniqueName } from './fixtures.ts';
import { E2E_PORT, E2E_VOICE_SECRET, E2E_WEBHOOK } from './playwright.config.ts';

/**
 * The administrators' stories after the setup (issue #2 onwards), each with its own administrator,
 * so they run side by side; desktop project only (each opens a phone-sized view where it needs one).
 */
test.describe.configure({ timeout: 120_000 });

test('the follow-up story: one prospect from three forms, state, note, next contact, search, filters, CSV, a stale change', async ({
  page,
  sql,
  consoleErrors,
}) => {
  const admin = await signInAsNewAdmin(page, sql);

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
    page.getByRole('listitem').filter({ hasText: 'Estado: Nuevo → Contactado' }).getByText(admin.email),
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
  // A row of the campaign report by ad opens Prospectos filtered by that ad (utm_content), as its filters show.
  await page.goto('/admin?vista=prospectos&source=google&campaign=otono&ad=video-30s');
  await expect(page.getByLabel('Anuncio')).toHaveValue('video-30s');
  await expect(page.getByText('Más filtros (3)')).toBeVisible();
  await expect(page.getByText('Ningún prospecto coincide con la búsqueda o los filtros.')).toBeVisible();
  await picture(page, { path: 'test-results/e2e/filtros-anuncio-1280.png' });
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
  await signInAsNewAdmin(page, sql);
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
    await picture(page, { path: 'test-results/e2e/notificaciones-1280.png', fullPage: true });

    // Advisers use phones: the page fits 390 px without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Canales' })).toBeVisible();
    await picture(page, { path: 'test-results/e2e/notificaciones-390.png', fullPage: true });
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
  sql,
  consoleErrors,
}) => {
  await signInAsNewAdmin(page, sql);
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
  await picture(page, { path: 'test-results/e2e/llamadas-1280.png', fullPage: true });

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
  await picture(page, { path: 'test-results/e2e/llamada-390.png', fullPage: true });
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
  await signInAsNewAdmin(page, sql);
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
  await expect(dialog).toContainText(
    'Se borrarán 1 solicitud, 0 llamadas, 0 notas, su historial, sus mensajes de WhatsApp y sus avisos.',
  );
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
  await signInAsNewAdmin(page, sql);
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
  await picture(adviser, { path: 'test-results/e2e/asesor-390.png', fullPage: true });
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
  await picture(adviser, { path: 'test-results/e2e/notas-asesor-390.png', fullPage: true });
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
  await picture(page, { path: 'test-results/e2e/actividad-1280.png', fullPage: true });
  await phone.close();
  expect(consoleErrors).toEqual([]);
});
