import type { Page, TestInfo } from '@playwright/test';
import { type FakeStripe, startFakeStripe } from '../support/stripe-fake.ts';
import { accessibilityViolations, expect, test, uniquePersonName } from './fixtures.ts';
import { E2E_PORT, E2E_STRIPE } from './playwright.config.ts';

/**
 * Issue #41, the buyer's side (decision 0070), on a phone (390 px): the $499
 * advisory booked from /modelos through the picker, paid from the site's page
 * /pagar on "Stripe's" hosted page (the fake of tests/support/stripe-fake.ts,
 * on the one port the e2e server was given, whose page sends the signed
 * webhook when «Pagar» is pressed), and back on /pagar the payment is
 * confirmed by the webhook; axe on /pagar before and after.
 */

let stripe: FakeStripe | undefined;

// The fake listens on the one port the e2e server was given: only in the project that runs the story.
test.beforeAll(async ({ browserName: _browser }, info) => {
  if (info.project.name === 'mobile')
    stripe = await startFakeStripe({ port: E2E_STRIPE.port, webhookUrl: `http://127.0.0.1:${E2E_PORT}` });
});
test.afterAll(async () => {
  await stripe?.close();
});

const shot = (page: Page, info: TestInfo, name: string) =>
  page.screenshot({ path: info.outputPath(`${name}-${page.viewportSize()?.width}.png`), fullPage: true });

test('pays the advisory booked from /modelos by card, and /pagar says it is paid', async ({ page, sql }, info) => {
  test.skip(info.project.name !== 'mobile', 'one story per run, on a phone');
  const email = `asesorias-${Math.random().toString(36).slice(2, 10)}@ceiba.mx`;
  const [member] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash, name) VALUES ($1, '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Asesora de pagos') RETURNING id`,
    [email],
  );
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [member?.id]);
  await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, 'asesoria-personalizada')`, [
    member?.id,
  ]);
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [member?.id],
  );
  const name = uniquePersonName('Compradora');

  await page.goto('/modelos');
  await page.getByRole('button', { name: 'Agendar mi asesoría' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agenda tu cita' });
  await expect(dialog.getByRole('radio', { name: /Asesoría personalizada/ })).toBeChecked();
  const days = dialog.getByRole('group', { name: 'Elige el día' }).getByRole('radio');
  await days.nth(1).locator('..').click();
  const time = dialog
    .getByRole('group', { name: /^Elige la hora/ })
    .getByRole('radio')
    .first();
  await time.locator('..').click();
  await expect(time).toBeChecked();
  await dialog.getByLabel('Nombre').fill(name);
  await dialog.getByLabel('WhatsApp').fill(`999 ${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`);
  await dialog.getByRole('button', { name: 'Apartar mi lugar · $499 MXN' }).click();
  await expect(dialog.getByRole('heading', { name: 'Apartamos tu lugar' })).toBeFocused();

  // Our page first: what is paid, until when the slot is held, and nothing of Stripe yet.
  await dialog.getByRole('link', { name: 'Pagar ahora' }).click();
  await expect(page).toHaveURL(/\/pagar\?t=/);
  await expect(page.getByRole('heading', { name: 'Asesoría personalizada' })).toBeVisible();
  await expect(page.getByText('$499 MXN', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Tu horario está apartado hasta el /)).toBeVisible();
  expect(await accessibilityViolations(page, 'main')).toEqual([]);
  await shot(page, info, 'pagar');
  await page.getByRole('button', { name: 'Pagar $499 MXN' }).click();

  // "Stripe's" hosted page (the fake), then back: the webhook's word, not the browser's.
  await expect(page.getByRole('heading', { name: 'Pago simulado de Stripe' })).toBeVisible();
  await page.getByRole('button', { name: 'Pagar con tarjeta' }).click();
  await expect(page).toHaveURL(/\/pagar\?t=.*&estado=listo/);
  await expect(page.getByText('¡Pago recibido!')).toBeVisible();
  await expect(page.getByText('Tu cita quedó confirmada.', { exact: false })).toBeVisible();
  expect(await accessibilityViolations(page, 'main')).toEqual([]);
  await shot(page, info, 'pagado');

  const [row] = await sql<{ status: string; payment: string; method: string }>(
    `SELECT a.status, p.status AS payment, p.method FROM appointments a JOIN contacts c ON c.id = a.contact_id
     JOIN payments p ON p.appointment_id = a.id WHERE c.name = $1`,
    [name],
  );
  expect(row).toEqual({ status: 'confirmada', payment: 'pagado', method: 'tarjeta' });
});
