import { signInAsNewAdmin } from './admins.ts';
import { accessibilityViolations, expect, picture, test, toast } from './fixtures.ts';
import { E2E_PORT } from './playwright.config.ts';

/**
 * Requiring passkeys of administrators is the team's one setting: while this story has it on, an
 * administrator signed in with a password elsewhere reaches only "Mi cuenta". It runs in the
 * `exclusive` project, after every other story (playwright.config.ts).
 */
test.describe.configure({ timeout: 120_000 });

test('passkeys: added in "Mi cuenta" with Chromium’s virtual authenticator, then used to sign in instead of the password', async ({
  page,
  sql,
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
  const admin = await signInAsNewAdmin(page, sql, origin);
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
  await page.getByLabel('Correo electrónico').fill(admin.email);
  await page.getByLabel('Contraseña').fill(admin.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(/Tu equipo exige que los administradores entren con una llave de acceso/)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Vistas del panel' }).getByRole('link')).toHaveText(['Mi cuenta']);
  await expect(page.getByRole('heading', { name: 'Cambiar contraseña' })).toBeVisible();
  expect((await page.request.get(`${origin}/api/admin/contacts`)).status()).toBe(403);
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: 'test-results/e2e/llave-exigida-1280.png', fullPage: true });

  // With the passkey, the whole panel again; the requirement is turned off for the stories after this one.
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
  await expect(page.getByRole('link', { name: 'Equipo', exact: true })).toBeVisible();
  await page.goto(`${origin}/admin#equipo`);
  await requirement.click();
  await expect(toast(page, 'Ya no se exige llave de acceso')).toBeVisible();
  await expect(requirement).not.toBeChecked();
  expect(consoleErrors).toEqual([]);
});
