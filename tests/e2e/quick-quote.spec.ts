import type { Page } from '@playwright/test';
import { expect, keptToasts, test, toast, uniqueName } from './fixtures.ts';

test.describe('quick-quote dialog', () => {
  test('opens from the hero, traps focus, closes on Esc and returns focus to its opener', async ({ page }) => {
    await page.goto('/');
    const opener = page.getByRole('button', { name: 'Estimación rápida (2 min)' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Obtén tu estimación rápida' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Nombre')).toBeFocused();

    // Tab cycles inside the modal dialog: the page behind is inert.
    for (let press = 0; press < 8; press++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('asks for name and WhatsApp and sends nothing while they are missing', async ({ page, sql }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Correo electrónico').fill('solo@correo.mx');
    await dialog.getByRole('button', { name: 'Ver modelos y precios' }).click();
    await expect(toast(page, 'Campos requeridos')).toContainText('Por favor completa tu nombre y WhatsApp');
    await expect(dialog.getByText('Escribe tu nombre.')).toBeVisible();
    await expect(dialog.getByText('Escribe tu número de WhatsApp.')).toBeVisible();
    expect(await sql("SELECT 1 FROM cotizaciones_rapidas WHERE email = 'solo@correo.mx'")).toHaveLength(0);
  });

  test('stores the lead with origin hero, closes, clears and goes to /modelos with a thank-you', async ({
    page,
    sql,
  }) => {
    const name = uniqueName('Hero');
    const toasts = await keptToasts(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByLabel('WhatsApp').fill('999 123 4567');
    await dialog.getByRole('button', { name: 'Ver modelos y precios' }).click();

    await expect(page).toHaveURL(/\/modelos$/);
    await expect
      .poll(toasts)
      .toContain('¡Gracias por tu interés!Te mostramos modelos y rangos de precio. Un asesor te contactará pronto.');
    const rows = await sql('SELECT phone, email, origin, landing_path FROM cotizaciones_rapidas WHERE name = $1', [
      name,
    ]);
    expect(rows).toEqual([{ phone: '+529991234567', email: null, origin: 'hero', landing_path: '/' }]);
  });

  test('sends origin paths from the "Más popular" card, and one row for a double click', async ({ page, sql }) => {
    const name = uniqueName('Paths');
    await page.goto('/');
    const card = page.getByRole('listitem').filter({ hasText: 'Más popular' });
    // The card promises what the dialog does (issue #25): it asks for no land nor budget.
    await expect(card).toContainText(
      'Déjanos tu nombre y tu WhatsApp y te mostramos los modelos con sus precios. En menos de 24 horas, un asesor te ayuda a elegir el que va con tu terreno y tu presupuesto.',
    );
    await card.getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByLabel('WhatsApp').fill('+52 55 1234 5678');
    await dialog.getByLabel('Correo electrónico').fill('Paths@Correo.MX');
    await dialog.getByRole('button', { name: 'Ver modelos y precios' }).dblclick();
    await expect(page).toHaveURL(/\/modelos$/);
    expect(await sql('SELECT phone, email, origin FROM cotizaciones_rapidas WHERE name = $1', [name])).toEqual([
      { phone: '+525512345678', email: 'paths@correo.mx', origin: 'paths' },
    ]);
  });

  test('answers edited after a refused answer go with a new key: stored, never refused as a reused key', async ({
    page,
    sql,
    consoleErrors,
  }) => {
    const name = uniqueName('Editado');
    const keys = await loseFirstAnswer(page, 'refused');
    await page.goto('/');
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByLabel('WhatsApp').fill('999 123 4567');
    await dialog.getByRole('button', { name: 'Ver modelos y precios' }).click();
    await expect(toast(page, 'Error')).toBeVisible();
    await dialog.getByLabel('Nombre').fill(`${name} Corregido`);
    await dialog.getByRole('button', { name: 'Ver modelos y precios' }).click();
    await expect(page).toHaveURL(/\/modelos$/);
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
    expect(await sql('SELECT 1 FROM cotizaciones_rapidas WHERE name = $1', [`${name} Corregido`])).toHaveLength(1);
    consoleErrors.splice(0);
  });

  test('a lost answer: the request waits in the outbox, goes out again with the same key, and is stored once', async ({
    page,
    sql,
    consoleErrors,
  }) => {
    const name = uniqueName('Reintento');
    const keys = await loseFirstAnswer(page, 'reset');
    await page.goto('/');
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByLabel('WhatsApp').fill('999 123 4567');
    await dialog.getByRole('button', { name: 'Ver modelos y precios' }).click();
    // Unanswered: the next page would not load either; the visitor stays, told, and this page sends what waits.
    await expect(toast(page, 'Solicitud guardada')).toContainText(
      'Tu conexión no respondió: guardamos tu solicitud y la enviaremos en cuanto mejore la señal.',
    );
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page, 'Solicitud enviada')).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await sql('SELECT 1 FROM cotizaciones_rapidas WHERE name = $1', [name])).toHaveLength(1);
    expect(await page.evaluate(() => localStorage.getItem('leadOutbox'))).toBeNull();
    consoleErrors.splice(0);
  });

  test('stays open with what was typed when the server refuses the request', async ({ page, consoleErrors }) => {
    // A 4xx other than 408 and 429 is the request's own fault: nothing waits in the outbox, the
    // visitor sees the failure. (No answer, 408, 429 and 5xx are kept and sent later: outbox.spec.ts.)
    await page.route('**/api/quick-quotes', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: '{"error":"x"}' }),
    );
    await page.goto('/');
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre').fill('Ana Sin Red');
    await dialog.getByLabel('WhatsApp').fill('9991234567');
    await dialog.getByRole('button', { name: 'Ver modelos y precios' }).click();
    await expect(toast(page, 'Error')).toContainText(
      'Hubo un problema al enviar tu información. Por favor intenta de nuevo.',
    );
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Nombre')).toHaveValue('Ana Sin Red');
    await expect(dialog.getByLabel('WhatsApp')).toHaveValue('9991234567');
    expect(consoleErrors.splice(0)).toEqual([
      expect.stringContaining('403'),
      'No se pudo enviar el formulario (/api/quick-quotes): estado 403',
    ]);
    expect(await page.evaluate(() => localStorage.getItem('leadOutbox'))).toBeNull();
  });
});

/**
 * The first quick quote reaches the server and is stored, then its answer is
 * lost on the way back (`reset`: the connection drops; `refused`: a 403 comes
 * instead, which is not retried); returns the Idempotency-Key of every attempt.
 */
async function loseFirstAnswer(page: Page, how: 'reset' | 'refused'): Promise<string[]> {
  const keys: string[] = [];
  await page.route('**/api/quick-quotes', async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.continue();
    await route.fetch();
    if (how === 'refused') return route.fulfill({ status: 403, contentType: 'application/json', body: '{}' });
    return route.abort('connectionreset');
  });
  return keys;
}
