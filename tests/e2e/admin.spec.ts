import bcrypt from 'bcryptjs';
import { accessibilityViolations, expect, keptToasts, test, toast, uniqueName } from './fixtures.ts';

const ADMIN = { email: 'direccion@ceiba.mx', password: 'mérida-2026-segura' };

// One administrator per database is made through the one-time setup: that story runs once, in the
// desktop project only (see playwright.config.ts), and checks the panel at 390 px on the way. The
// administrators' other stories (admin-*.spec.ts, passkeys.spec.ts) bring their own administrator.
// Each story is long (up to about 25 s alone, with axe checks at each step): Playwright's default
// 30 s bound for a whole test is too tight when the machine is busy, and a bound is not an assertion.
// In order: while the setup story runs, /auth offers the setup instead of signing in (the second story's form).
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test('the whole administrator story', async ({ page, sql, consoleErrors }) => {
  // The toasts shown as the panel opens after a navigation, kept (a toast lives 5 s: fixtures.ts).
  const toasts = await keptToasts(page);
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
  await expect.poll(toasts).toContain('Configuración exitosa');
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
  await expect.poll(toasts).toContain('Acceso exitosoBienvenido al panel de administración');
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
