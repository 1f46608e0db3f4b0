import type { ParsedMail } from 'mailparser';
import pg from 'pg';
import { createTestDatabase, dropTestDatabase } from '../support/databases.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { type FakePlatform, startFakePlatform, whatsappEnv } from '../support/whatsapp-platform.ts';
import { expect, test } from './fixtures.ts';
import { E2E_DATABASE_URL } from './playwright.config.ts';

/**
 * Issue #40's story end to end, on a phone (390 px): a visitor books a visit
 * to the model house from /modelos, receives the confirmation (the WhatsApp
 * template at the fake Cloud API, the e-mail with its calendar file at a real
 * SMTP server), opens the link the e-mail carries, moves the visit to another
 * day, and the panel shows the contact's appointment at its new time. The
 * story owns its site: a server of its own, on a fresh database of the e2e
 * cluster, with e-mail and WhatsApp configured (the shared server has
 * neither for this).
 */

const ADMIN = { email: 'citas@ceiba.mx', password: 'ceiba-citas-2026' };
const PHONE = '999 555 0140';
const EMAIL = 'lucia.batun@correo.mx';
const NAME = 'Lucía Batún';

let server: RunningServer;
let smtp: SmtpReceiver;
let platform: FakePlatform;
let databaseUrl: string;

test.describe.configure({ mode: 'serial' });
// One phone-sized story: the desktop project has the picker's own stories (appointments.spec.ts).
test.skip(({ viewport }) => (viewport?.width ?? 0) > 400, 'a phone-sized story');

test.beforeAll(async () => {
  [smtp, platform] = await Promise.all([startSmtpReceiver(), startFakePlatform()]);
  databaseUrl = await createTestDatabase(E2E_DATABASE_URL, { prefix: 'e2e_citas' });
  server = await startServer({
    ...whatsappEnv(platform),
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'avisos@ceibacasas.mx',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
    NOTIFY_WEBHOOK_URL: undefined,
    NOTIFY_WEBHOOK_SECRET: undefined,
  });
  const setup = await fetch(`${server.url}/api/auth/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify(ADMIN),
  });
  expect(setup.status).toBe(201);
  // The administrator gives the visit, every day, all day: the place's hours decide the slots.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO member_appointment_kinds (member_id, kind) SELECT id, 'visita-casa-muestra' FROM users WHERE email = $1`,
      [ADMIN.email],
    );
    await client.query(
      `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
       SELECT u.id, day, '00:00', '23:59', 'America/Merida' FROM users u, generate_series(1, 7) AS day WHERE u.email = $1`,
      [ADMIN.email],
    );
  } finally {
    await client.end();
  }
});

test.afterAll(async () => {
  await server?.stop();
  await Promise.all([smtp?.close(), platform?.close()]);
  if (databaseUrl) await dropTestDatabase(E2E_DATABASE_URL, databaseUrl);
});

/** Whether an e-mail went to `address`. */
const sentTo = (mail: ParsedMail, address: string) =>
  mail.to !== undefined && (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to.text.includes(address));

/** The buyer's link in a text: /cita?t=<token>, on whatever site address the server was given. */
function manageLinkIn(text: string): URL {
  const found = /https?:\/\/[^\s"<>]+\/cita\?t=[A-Za-z0-9_-]{48}/.exec(text);
  if (!found) throw new Error(`no /cita link in: ${text.slice(0, 400)}`);
  return new URL(found[0]);
}

test('a visit booked on a phone is confirmed by WhatsApp and e-mail, moved from its link, and the panel shows the move', async ({
  page,
}) => {
  // Three queues and a server of its own on a shared machine: room for the messages to arrive.
  test.setTimeout(180_000);
  await page.goto(`${server.url}/modelos`);
  await page.getByRole('button', { name: 'Agenda tu visita' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agenda tu cita' });
  const days = dialog.getByRole('group', { name: 'Elige el día' }).getByRole('radio');
  await expect(days.first()).toBeAttached();
  await days.nth(1).locator('..').click();
  const time = dialog
    .getByRole('group', { name: /^Elige la hora/ })
    .getByRole('radio')
    .first();
  await time.locator('..').click();
  const start = (await time.getAttribute('value')) as string;
  await dialog.getByLabel('Nombre').fill(NAME);
  await dialog.getByLabel('WhatsApp').fill(PHONE);
  await dialog.getByLabel('Correo').fill(EMAIL);
  await dialog.getByRole('button', { name: 'Agendar cita' }).click();
  await expect(dialog.getByRole('heading', { name: '¡Listo, tu cita está agendada!' })).toBeVisible();

  // The confirmation: the template at the Cloud API, to the buyer's number, and the e-mail with its calendar file.
  const [template] = await platform.waitForSent(1, 60_000);
  expect(template).toMatchObject({ to: '529995550140', type: 'template' });
  const mail: ParsedMail = await smtp.waitForMail((each) => sentTo(each, EMAIL), 60_000);
  const calendar = mail.attachments.find((attachment) => attachment.filename?.endsWith('.ics'));
  expect(calendar?.content.toString('utf8')).toContain('METHOD:REQUEST');
  const link = manageLinkIn(`${mail.text ?? ''}\n${mail.html || ''}`);
  expect(JSON.stringify(template?.body)).toContain(link.searchParams.get('t'));

  // The buyer's page from the e-mail's link, on this site, and the visit moved to another day.
  await page.goto(`${server.url}/cita${link.search}`);
  await expect(page.getByRole('heading', { name: 'Visita a la casa muestra' })).toBeVisible();
  await page.getByRole('button', { name: 'Cambiar fecha u hora' }).click();
  const moveForm = page.getByRole('form', { name: 'Elige el nuevo horario' });
  const moveDays = moveForm.getByRole('group', { name: 'Elige el día' }).getByRole('radio');
  await expect(moveDays.first()).toBeAttached();
  await moveDays.nth(3).locator('..').click();
  const moveTime = moveForm
    .getByRole('group', { name: /^Elige la hora/ })
    .getByRole('radio')
    .first();
  await moveTime.locator('..').click();
  const newStart = (await moveTime.getAttribute('value')) as string;
  expect(newStart).not.toBe(start);
  await moveForm.getByRole('button', { name: 'Cambiar a este horario' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Listo: cambiamos tu cita.' })).toBeVisible();
  // The move is told too: a second e-mail, with the same event at its new time.
  await smtp.waitForMail((each) => sentTo(each, EMAIL) && each !== mail, 60_000);

  // The panel: the contact's "Citas" shows the visit at its new time, not the old one.
  await page.goto(`${server.url}/auth`);
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', ['+529995550140']);
  await client.end();
  await page.goto(`${server.url}/admin/prospecto?id=${rows[0]?.id}`);
  const appointment = page.getByTestId('appointment');
  await expect(appointment).toHaveCount(1);
  await expect(appointment.locator(`time[datetime="${newStart}"]`)).toBeVisible();
  await expect(appointment.locator(`time[datetime="${start}"]`)).toHaveCount(0);
});
