import type { Page } from '@playwright/test';
import { formatPhone } from '../../src/lib/forms/phone.ts';
import { signInAsNewMember } from './admins.ts';
import { accessibilityViolations, expect, picture, test, toast, uniqueName } from './fixtures.ts';

/**
 * Issue #26, items 1, 2, 3 and 7, as an adviser on a phone: Hoy, a contact
 * opened from it, Llamar, an outcome, the next contact proposed for tomorrow
 * at 10:00, a short note, Guardar: at most four taps on one screen, the
 * timeline shows it all, and Back returns to Hoy where it was.
 */
async function adviserWithContact(page: Page, sql: <R>(text: string, values?: unknown[]) => Promise<R[]>) {
  const user = await signInAsNewMember(page, sql, { role: 'asesor', name: 'Nadia Poot' });
  const digits = `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const name = uniqueName('Gabriela Kú');
  expect(
    (await page.request.post('/api/quick-quotes', { data: { name, phone: digits, origin: 'hero' } })).status(),
  ).toBe(201);
  const [contact] = await sql<{ id: string }>('UPDATE contacts SET assigned_to = $1 WHERE phone = $2 RETURNING id', [
    user.id,
    `+52${digits}`,
  ]);
  return { id: contact?.id as string, name, digits, adviserId: user.id };
}

// Stories with axe on long lists and full-page screenshots: 30 s is too tight beside another worker.
test.describe.configure({ timeout: 120_000 });

/** Tomorrow's date on Mérida's clock, YYYY-MM-DD. */
const tomorrowInMerida = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(new Date(Date.now() + 86_400_000));

test('a day at 390 px: Hoy, a due contact, Llamar, "No contestó", a note, Guardar in four taps, Back to Hoy in place', async ({
  page,
  sql,
}, info) => {
  test.skip(info.project.name !== 'mobile', 'the phone story');
  const { id, name, digits, adviserId } = await adviserWithContact(page, sql);
  // Nine contacts due before this one (days ago), and ten for later: the due one is far down Hoy's page.
  const run = Math.random().toString(36).slice(2, 8);
  const base = Math.floor(Math.random() * 1e5) * 100;
  for (let i = 0; i < 19; i++) {
    await sql(
      `INSERT INTO contacts (phone, name, is_buyer, state, next_contact_at, assigned_to)
       VALUES ($1, $2, true, 'contactado', now() + make_interval(days => $3), $4)`,
      [`+52999${String(base + i).padStart(7, '0')}`, `Día ${run} ${i}`, i < 9 ? i - 10 : i, adviserId],
    );
  }
  await sql(`UPDATE contacts SET state = 'contactado', next_contact_at = now() - interval '1 day' WHERE id = $1`, [id]);

  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Hoy', exact: true })).toBeVisible();
  const due = page.getByRole('region', { name: 'Contactos vencidos (10)' });
  await expect(due.getByRole('listitem')).toHaveCount(10);
  await expect(due.getByRole('listitem').last()).toContainText(name); // the latest due, last
  const card = due.getByRole('listitem').filter({ hasText: name });
  await card.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => Math.round(window.scrollY));
  expect(scrolled).toBeGreaterThan(500);
  await card.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/prospecto\\?id=${id}`));
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('0 intentos')).toBeVisible();
  // The phone's dialer stands outside the page: the tel: link's own navigation is held back, its click is not.
  await page.evaluate(() => {
    const counted = window as Window & { taps?: number };
    counted.taps = 0;
    document.addEventListener(
      'click',
      (event) => {
        if (event.isTrusted) counted.taps = (counted.taps ?? 0) + 1;
        if ((event.target as Element).closest('a[href^="tel:"]')) event.preventDefault();
      },
      true,
    );
  });

  const attempt = page.waitForResponse((response) => response.url().endsWith(`/api/admin/contacts/${id}/attempts`));
  await page.getByRole('link', { name: `Llamar ${formatPhone(`+52${digits}`)}` }).click(); // 1
  expect((await attempt).status()).toBe(204);
  const outcomes = page.getByRole('region', { name: `Resultado del contacto con ${name}` });
  await outcomes.getByRole('button', { name: 'No contestó' }).click(); // 2
  const sheet = page.getByRole('dialog', { name: `No contestó · ${name}` });
  await expect(sheet).toBeVisible();
  // The proposed next contact: tomorrow at 10:00 in Mérida, editable.
  await expect(sheet.getByLabel('Próximo contacto (hora de Mérida)')).toHaveValue(`${tomorrowInMerida()}T10:00`);
  // One screen: the whole sheet fits the phone.
  const box = await sheet.boundingBox();
  expect(box && box.y >= 0 && box.y + box.height <= 844).toBe(true);
  expect(await accessibilityViolations(page)).toEqual([]);
  await sheet.getByLabel('Nota breve (opcional)').click(); // 3
  await page.keyboard.type('Volver a marcar en la mañana');
  await sheet.getByRole('button', { name: 'Guardar' }).click(); // 4
  await expect(toast(page, 'Guardado: No contestó')).toBeVisible();
  await expect(sheet).toBeHidden();
  expect(await page.evaluate(() => (window as Window & { taps?: number }).taps)).toBeLessThanOrEqual(4);

  const history = page.getByRole('region', { name: 'Conversación e historial' });
  await expect(history.getByText('Resultado: No contestó')).toBeVisible();
  await expect(history.getByText('Volver a marcar en la mañana')).toBeVisible();
  await expect(history.getByText('Llamó (intento)')).toBeVisible();
  await expect(history.getByText(/^Próximo contacto: .+ → /)).toBeVisible();
  await expect(page.getByText('1 intento', { exact: false })).toBeVisible();
  await expect(page.getByLabel('Próximo contacto (hora de Mérida)')).toHaveValue(`${tomorrowInMerida()}T10:00`);
  const [stored] = await sql<{ attempts: number; next: string }>(
    `SELECT attempts, to_char(next_contact_at AT TIME ZONE 'America/Merida', 'YYYY-MM-DD"T"HH24:MI') AS next
     FROM contacts WHERE id = $1`,
    [id],
  );
  expect(stored).toEqual({ attempts: 1, next: `${tomorrowInMerida()}T10:00` });
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: 'test-results/day-contact-390.png', fullPage: true });

  // Back to Hoy, where it was: the contact is no longer due, its card says tomorrow.
  await page.goBack();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('region', { name: 'Contactos vencidos (9)' }).getByRole('listitem')).toHaveCount(9);
  await expect(page.getByRole('region', { name: /^Contactos vencidos/ })).not.toContainText(name);
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(scrolled);
  await expect(page.getByRole('listitem').filter({ hasText: name })).toContainText('1 intento');
  await sql('UPDATE contacts SET assigned_to = NULL WHERE assigned_to = $1', [adviserId]);
});

test('a past next contact is saved with a warning, and every card offers the outcomes', async ({ page, sql }, info) => {
  test.skip(info.project.name !== 'desktop', 'the desktop pass');
  const { id, name } = await adviserWithContact(page, sql);
  await page.goto(`/admin/prospecto?id=${id}`);
  const outcomes = page.getByRole('region', { name: `Resultado del contacto con ${name}` });
  await outcomes.getByRole('button', { name: 'Hablamos' }).click();
  const sheet = page.getByRole('dialog', { name: `Hablamos · ${name}` });
  await sheet.getByLabel('Próximo contacto (hora de Mérida)').fill('2024-05-10T09:30');
  await expect(sheet.getByText('Esta fecha y hora ya pasaron. Puedes guardarla así o cambiarla.')).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: 'test-results/day-sheet-1280.png' });
  await sheet.getByRole('button', { name: 'Guardar' }).click();
  await expect(toast(page, 'Guardado: Hablamos')).toBeVisible();
  // The contact's own follow-up form says it too (the closing sheet may still be on the page a moment).
  await expect(
    page
      .getByRole('form', { name: 'Seguimiento' })
      .getByText('Esta fecha y hora ya pasaron. Puedes guardarla así o cambiarla.'),
  ).toBeVisible();
  await expect(page.getByText('Resultado: Hablamos')).toBeVisible();

  // The list (Prospectos keeps closed contacts; Hoy drops them): each card has the outcomes; the badge counts
  // the due next contact. Searched for this story's contact: axe over the whole shared list took a minute.
  await page.goto(`/admin?vista=prospectos&q=${encodeURIComponent(name)}`);
  await expect(page.getByTestId('reminders')).toHaveText(
    /^\d+ contactos? vencidos? tuyos?: su próximo contacto era para antes de hoy$/,
  );
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
  await expect(card.getByRole('button', { name: 'No le interesa' })).toBeVisible();
  await card.getByRole('button', { name: 'No le interesa' }).click();
  const lost = page.getByRole('dialog', { name: `No le interesa · ${name}` });
  await expect(lost.getByLabel('Motivo')).toHaveValue('otro');
  await lost.getByLabel('Motivo').selectOption('sin_presupuesto');
  expect(await accessibilityViolations(page)).toEqual([]);
  await lost.getByRole('button', { name: 'Guardar' }).click();
  await expect(toast(page, 'Guardado: No le interesa')).toBeVisible();
  await expect(card).toContainText('Cerrado: perdido');
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: 'test-results/day-list-1280.png', fullPage: true });
});

test('the panel’s manifest and service worker live under /admin; the public pages have neither', async ({
  page,
  sql,
}, info) => {
  test.skip(info.project.name !== 'mobile', 'once');
  await adviserWithContact(page, sql);
  await page.goto('/admin');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/admin/manifest.webmanifest');
  const manifest = await (await page.request.get('/admin/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ scope: '/admin', start_url: '/admin', lang: 'es-MX' });
  const worker = await page.request.get('/admin/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((list) => list.length))).toBe(0);
});
