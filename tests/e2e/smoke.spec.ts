import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { E2E_DATABASE_URL } from './playwright.config.ts';

test('the home page renders in Spanish with its security headers and no console error', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));

  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es-MX');
  await expect(page).toHaveTitle(/Casas prefabricadas/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a lead sent from the page is stored in PostgreSQL', async ({ page }) => {
  await page.goto('/');
  const name = `Smoke ${randomUUID()}`;
  const status = await page.evaluate(async (visitor) => {
    const response = await fetch('/api/quick-quotes', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ name: visitor, phone: '999 123 4567', origin: 'hero', landing_path: location.pathname }),
    });
    return response.status;
  }, name);
  expect(status).toBe(201);

  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT phone, origin, landing_path FROM cotizaciones_rapidas WHERE name = $1',
      [name],
    );
    expect(rows).toEqual([{ phone: '+529991234567', origin: 'hero', landing_path: '/' }]);
  } finally {
    await client.end();
  }
});
