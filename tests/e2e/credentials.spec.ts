import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { createTestDatabase, dropTestDatabase } from '../support/databases.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { accessibilityViolations, expect, test, toast, waitForForm } from './fixtures.ts';
import { E2E_DATABASE_URL } from './playwright.config.ts';

/**
 * Issue #12, credentials in the browser: a password change ends another
 * session, the recovery link arrives through a real SMTP server, and the reset
 * command's link works once. These stories own their site: a server of their
 * own on a fresh database of the e2e cluster, with e-mail configured (the
 * shared e2e server has none, on purpose, for the notifications story).
 */
const ADMIN = { email: 'gerencia@ceiba.mx', password: 'ceiba-2026-inicial' };

let server: RunningServer;
let smtp: SmtpReceiver;
let databaseUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  smtp = await startSmtpReceiver();
  databaseUrl = await createTestDatabase(E2E_DATABASE_URL, { prefix: 'e2e_credentials' });
  server = await startServer({
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'avisos@ceibacasas.mx',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
    // The shared e2e server's webhook is not this site's.
    NOTIFY_WEBHOOK_URL: undefined,
    NOTIFY_WEBHOOK_SECRET: undefined,
  });
  const setup = await fetch(`${server.url}/api/auth/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify(ADMIN),
  });
  expect(setup.status).toBe(201);
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  if (databaseUrl) await dropTestDatabase(E2E_DATABASE_URL, databaseUrl);
});

/** Signs in through the /auth form, as a person would. */
async function signInWithForm(page: Page, password: string): Promise<void> {
  await page.goto(`${server.url}/auth`);
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/** A second device: its own browser context, signed in with the same account. */
async function secondDevice(browser: Browser, password: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const page = await context.newPage();
  await signInWithForm(page, password);
  return { context, page };
}

/** The used link's check is answered 410, which Chromium logs; nothing else may be. */
function expectOnlyTheRefusedLink(consoleErrors: string[]): void {
  expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 410 ()']);
  consoleErrors.splice(0);
}

async function expectSignedOut(page: Page): Promise<void> {
  await page.goto(`${server.url}/admin`);
  await expect(page).toHaveURL(/\/auth$/);
}

test('changing the password in "Mi cuenta" ends the session on the other device, not this one', async ({
  page,
  browser,
  consoleErrors,
}) => {
  await signInWithForm(page, ADMIN.password);
  const phone = await secondDevice(browser, ADMIN.password);

  await page.goto(`${server.url}/admin#cuenta`);
  await page.getByLabel('Contraseña actual').fill(ADMIN.password);
  await page.getByLabel('Contraseña nueva').fill('ceiba-2026-cambiada');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(toast(page, 'Contraseña actualizada')).toContainText('Cerramos tus sesiones en otros dispositivos.');
  ADMIN.password = 'ceiba-2026-cambiada';

  await expectSignedOut(phone.page);
  await page.goto(`${server.url}/admin#prospectos`);
  await expect(page.getByRole('heading', { name: 'Panel de Administración' })).toBeVisible();
  await phone.context.close();
  expect(consoleErrors).toEqual([]);
});

test('"¿Olvidaste tu contraseña?": the link arrives by e-mail, works once, and ends every session', async ({
  page,
  browser,
  consoleErrors,
}) => {
  const office = await secondDevice(browser, ADMIN.password);

  await page.goto(`${server.url}/auth`);
  await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
  // Its form is in the page's HTML: a press before the island runs would send it as a plain GET.
  await waitForForm(page, 'Recupera tu acceso');
  const before = smtp.messages.length;
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(page.getByRole('heading', { name: 'Revisa tu correo' })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  const [mail] = (await smtp.waitFor(before + 1)).slice(before);
  expect((mail?.to as { text: string } | undefined)?.text).toContain(ADMIN.email);
  const link = /https?:\/\/\S+\/auth\/restablecer#[A-Za-z0-9_-]{43}/.exec(mail?.text ?? '')?.[0];
  expect(link).toBeDefined();

  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Elige una contraseña nueva' })).toBeVisible();
  await expect(page.getByText(`Para ${ADMIN.email}.`)).toBeVisible();
  await page.getByRole('textbox', { name: 'Contraseña nueva' }).fill('ceiba-2026-recuperada');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  ADMIN.password = 'ceiba-2026-recuperada';

  await expectSignedOut(office.page);
  await signInWithForm(page, ADMIN.password);

  // The same link, a second time: a clear Spanish page, and a way to ask for another.
  await page.goto(`${server.url}/`);
  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pedir un enlace nuevo' })).toBeVisible();
  await office.context.close();
  expectOnlyTheRefusedLink(consoleErrors);
});

test('the link printed by npm run admin:reset-password lets the administrator back in, once', async ({
  page,
  consoleErrors,
}) => {
  const run = await promisify(execFile)(
    process.execPath,
    [path.resolve(import.meta.dirname, '../../scripts/admin-reset-password.ts'), ADMIN.email],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, SITE_URL: server.url },
      encoding: 'utf8',
    },
  );
  const link = /https?:\/\/\S+\/auth\/restablecer#[A-Za-z0-9_-]{43}/.exec(run.stdout)?.[0] as string;
  expect(link.startsWith(`${server.url}/auth/restablecer#`)).toBe(true);

  await page.goto(link);
  await page.getByRole('textbox', { name: 'Contraseña nueva' }).fill('ceiba-2026-por-comando');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await signInWithForm(page, 'ceiba-2026-por-comando');

  await page.goto(`${server.url}/`);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  expectOnlyTheRefusedLink(consoleErrors);
});
