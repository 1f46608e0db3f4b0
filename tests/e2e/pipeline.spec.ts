import type { Page } from '@playwright/test';
import { signInAsNewMember } from './admins.ts';
import { accessibilityViolations, expect, picture, test, uniqueName } from './fixtures.ts';

/**
 * Issue #26, item 6 (decision 0041): "Embudo" as an adviser with two deals of
 * their own. At 390 px one stage at a time and «Mover a…» (a lost deal asks
 * its reason); at 1280 px seven columns, a card dragged with the mouse, and a
 * move with the keyboard alone. Axe clean and a screenshot at both sizes.
 */
type Sql = <R>(text: string, values?: unknown[]) => Promise<R[]>;

async function adviserWithDeals(page: Page, sql: Sql) {
  const user = await signInAsNewMember(page, sql, { role: 'asesor', name: 'Irma Canché' });
  const deal = async (name: string, model: string, value: number | null) => {
    const phone = `+5299${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await sql(
      `INSERT INTO contacts (phone, name, is_buyer, assigned_to, model_id, estimated_value_mxn, expected_close_on)
       VALUES ($1, $2, true, $3, $4, $5, current_date + 30)`,
      [phone, name, user.id, model, value],
    );
    return name;
  };
  // Sand Plus at its catalogue price ($760,800); Lumo overridden to $400,000.
  const first = await deal(uniqueName('Rosa Pech'), 'sand-plus', null);
  const second = await deal(uniqueName('Luis Chan'), 'lumo', 400_000);
  return { first, second };
}

const stateOf = async (sql: Sql, name: string) =>
  (
    await sql<{ state: string; lost_reason: string | null }>(
      'SELECT state, lost_reason FROM contacts WHERE name = $1',
      [name],
    )
  )[0];

test.describe.configure({ timeout: 120_000 });

test('Embudo: a card moved with «Mover a…» on a phone, by drag and by keyboard on a desktop; lost asks its reason', async ({
  page,
  sql,
}, info) => {
  const { first, second } = await adviserWithDeals(page, sql);
  await page.goto('/admin?vista=embudo&assigned=me');
  await expect(page.getByRole('heading', { name: 'Embudo' })).toBeVisible();
  const column = (label: string) =>
    page.locator('section[data-column]').filter({ has: page.getByRole('heading', { name: new RegExp(`^${label}`) }) });
  const card = (name: string) => page.locator('li[data-card]').filter({ hasText: name });
  const announced = page.getByRole('status').filter({ hasText: /pasó a|No se movió/ });
  const nuevo = column('Nuevo');
  await expect(nuevo.getByRole('heading')).toHaveText('Nuevo 2');
  await expect(nuevo.getByText('$1,160,800', { exact: true })).toBeVisible();
  await expect(card(first)).toContainText('Sand Plus');
  await expect(card(first)).toContainText('$760,800');
  await expect(card(second)).toContainText('$400,000');

  if (info.project.name === 'mobile') {
    // One stage at a time: the page is never wider than the phone.
    await expect(column('Contactado')).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await accessibilityViolations(page)).toEqual([]);
    await picture(page, { path: 'test-results/e2e/embudo-390.png', fullPage: true });

    await card(first)
      .getByRole('button', { name: /^Mover a…/ })
      .click();
    let dialog = page.getByRole('dialog', { name: `Mover a ${first}` });
    await dialog.getByLabel('Contactado').check();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Mover' }).click();
    await expect(announced).toHaveText(`${first} pasó a «Contactado».`);
    await page.getByRole('button', { name: 'Contactado (1)' }).click();
    await expect(column('Contactado').getByRole('link', { name: first })).toBeVisible();
    expect((await stateOf(sql, first))?.state).toBe('contactado');

    // Lost: the reason is asked for, and nothing moves without it.
    await card(first)
      .getByRole('button', { name: /^Mover a…/ })
      .click();
    dialog = page.getByRole('dialog', { name: `Mover a ${first}` });
    await dialog.getByLabel('Cerrado: perdido').check();
    await dialog.getByRole('button', { name: 'Mover' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Elige el motivo por el que se perdió.');
    expect((await stateOf(sql, first))?.state).toBe('contactado');
    await dialog.getByLabel('Motivo por el que se perdió').selectOption('sin_presupuesto');
    await dialog.getByRole('button', { name: 'Mover' }).click();
    await expect(announced).toHaveText(`${first} pasó a «Cerrado: perdido».`);
    expect(await stateOf(sql, first)).toEqual({ state: 'cerrado_perdido', lost_reason: 'sin_presupuesto' });
    return;
  }

  // A desktop: the seven columns side by side (scrolling sideways past the window's width).
  for (const label of [
    'Nuevo',
    'Contactado',
    'En seguimiento',
    'Visita agendada',
    'Visitó',
    'Cerrado: ganado',
    'Cerrado: perdido',
  ]) {
    await expect(column(label)).toBeVisible();
  }
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: 'test-results/e2e/embudo-1280.png', fullPage: true });

  // Dragged with the mouse to "En seguimiento": the column's count and value follow.
  await card(first).dragTo(column('En seguimiento'));
  await expect(announced).toHaveText(`${first} pasó a «En seguimiento».`);
  await expect(column('En seguimiento').getByRole('heading')).toHaveText('En seguimiento 1');
  await expect(column('Nuevo').getByText('$400,000', { exact: true }).first()).toBeVisible();
  expect((await stateOf(sql, first))?.state).toBe('en_seguimiento');

  // Dropped on lost: the reason first.
  await card(first).dragTo(column('Cerrado: perdido'));
  const dialog = page.getByRole('dialog', { name: `Mover a ${first}` });
  await dialog.getByLabel('Motivo por el que se perdió').selectOption('sin_terreno');
  await dialog.getByRole('button', { name: 'Mover' }).click();
  await expect(announced).toHaveText(`${first} pasó a «Cerrado: perdido».`);
  expect(await stateOf(sql, first)).toEqual({ state: 'cerrado_perdido', lost_reason: 'sin_terreno' });

  // The keyboard alone: to the card's «Mover a…», a stage chosen with the arrows, Enter.
  await card(second).getByRole('link', { name: second }).focus();
  await page.keyboard.press('Tab');
  await expect(card(second).getByRole('button', { name: /^Mover a…/ })).toBeFocused();
  await page.keyboard.press('Enter');
  const keyboardDialog = page.getByRole('dialog', { name: `Mover a ${second}` });
  await expect(keyboardDialog).toBeVisible();
  // The dialog takes the focus to its first stage (its own, «Nuevo», cannot be chosen).
  await expect(keyboardDialog.getByLabel('Contactado')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(keyboardDialog.getByLabel('Contactado')).toBeChecked();
  await page.keyboard.press('ArrowDown');
  await expect(keyboardDialog.getByLabel('En seguimiento')).toBeChecked();
  await page.keyboard.press('Tab'); // Cancelar
  await page.keyboard.press('Tab'); // Mover
  await page.keyboard.press('Enter');
  await expect(announced).toHaveText(`${second} pasó a «En seguimiento».`);
  expect((await stateOf(sql, second))?.state).toBe('en_seguimiento');
});
