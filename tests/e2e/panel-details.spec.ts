import type { Locator, Page } from '@playwright/test';
import { signInAsNewAdmin, signInAsNewMember } from './admins.ts';
import { accessibilityViolations, expect, picture, runAxe, test } from './fixtures.ts';

/** Issue #38, items 13 and 14: what the sales team saw at 390 px and 1280 px. */

type Sql = <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;

const WIDTHS = [390, 1280] as const;

/** Contacts of `memberId`, each with its next contact at `next` (SQL for an instant); their names. */
async function seed(sql: Sql, memberId: string | null, contacts: { label: string; next: string | null }[]) {
  const run = Math.random().toString(36).slice(2, 8);
  const base = Math.floor(Math.random() * 1e5) * 100;
  for (const [i, contact] of contacts.entries()) {
    await sql(
      `INSERT INTO contacts (phone, name, is_buyer, state, next_contact_at, assigned_to)
       VALUES ($1, $2, true, 'contactado', ${contact.next ?? 'NULL'}, $3)`,
      [`+52999${String(base + i).padStart(7, '0')}`, `Detalle ${run} ${contact.label}`, memberId],
    );
  }
  return run;
}

const TODAY_START = `(date_trunc('day', now() AT TIME ZONE 'America/Merida') AT TIME ZONE 'America/Merida')`;

/** An element's box, at least `min` px each way. */
async function expectTarget(target: Locator, what: string, min = 44) {
  const box = await target.boundingBox();
  expect(box, what).not.toBeNull();
  expect(Math.round(box?.height ?? 0), `${what}: height`).toBeGreaterThanOrEqual(min);
  expect(Math.round(box?.width ?? 0), `${what}: width`).toBeGreaterThanOrEqual(min);
}

for (const width of WIDTHS) {
  test(`"Vencidos" at ${width} px: the badge says whose and counts what the figure of "Hoy" counts, and opens that list`, async ({
    page,
    sql,
  }, info) => {
    test.skip(info.project.name !== 'desktop', 'one pass sets both widths');
    await page.setViewportSize({ width, height: 844 });
    const me = await signInAsNewMember(page, sql, { role: 'asesor' });
    // Two from before today, one at today's first minute: the badge used to count all three, "Hoy" two.
    const run = await seed(sql, me.id, [
      { label: 'antier', next: `${TODAY_START} - interval '30 hours'` },
      { label: 'ayer', next: `${TODAY_START} - interval '6 hours'` },
      { label: 'hoy temprano', next: TODAY_START },
    ]);
    await page.goto('/admin');
    const badge = page.getByTestId('reminders');
    await expect(badge).toHaveText('2 contactos vencidos tuyos: su próximo contacto era para antes de hoy');
    await expect(page.getByRole('link', { name: /^2\s*Vencidos$/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Contactos vencidos (2)' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Para hoy (1)' })).toBeVisible();
    await expectTarget(badge.getByRole('link'), 'the badge');
    expect(await accessibilityViolations(page)).toEqual([]);
    await picture(page, { path: `test-results/panel-details-hoy-${width}.png` });

    await badge.getByRole('link').click();
    await expect(page).toHaveURL(/\/admin\?vista=prospectos&agenda=vencidos&assigned=me$/);
    await expect(page.getByRole('link', { name: new RegExp(`^Detalle ${run}`) })).toHaveCount(2);
  });

  test(`names and checkboxes of the list are 44 px targets at ${width} px`, async ({ page, sql }, info) => {
    test.skip(info.project.name !== 'desktop', 'one pass sets both widths');
    await page.setViewportSize({ width, height: 844 });
    const me = await signInAsNewAdmin(page, sql);
    const run = await seed(sql, me.id, [
      { label: 'uno', next: null },
      { label: 'dos', next: null },
    ]);
    await page.goto(`/admin?vista=prospectos&assigned=me`);
    const name = page.getByRole('link', { name: `Detalle ${run} uno` });
    await expect(name).toBeVisible();
    await expectTarget(name, 'the name link', 44);
    const checkbox = page.getByRole('checkbox', { name: `Seleccionar a Detalle ${run} uno` });
    // The hit area is the label around the box (a click anywhere on it ticks the box).
    await expectTarget(checkbox.locator('xpath=ancestor::label[1]'), 'the checkbox’s label');
    await checkbox.locator('xpath=ancestor::label[1]').click({ position: { x: 2, y: 2 } });
    await expect(checkbox).toBeChecked();
    expect(await accessibilityViolations(page)).toEqual([]);
    await picture(page, { path: `test-results/panel-details-list-${width}.png` });

    await page.goto('/admin?vista=embudo&assigned=me&etapa=contactado');
    const card = page.getByRole('link', { name: `Detalle ${run} dos` });
    await expect(card).toBeVisible();
    await expectTarget(card, 'the pipeline card’s name', 44);
  });
}

for (const width of WIDTHS) {
  test(`the merge box writes the other contact’s phone as the panel does, at ${width} px`, async ({
    page,
    sql,
    consoleErrors,
  }, info) => {
    test.skip(info.project.name !== 'desktop', 'one pass sets both widths');
    await page.setViewportSize({ width, height: 844 });
    const me = await signInAsNewAdmin(page, sql);
    const run = await seed(sql, me.id, [
      { label: 'se queda', next: null },
      { label: 'se va', next: null },
    ]);
    const rows = await sql<{ id: string; phone: string }>(
      `SELECT id, phone FROM contacts WHERE name LIKE $1 ORDER BY name DESC`,
      [`Detalle ${run} %`],
    );
    const [kept, other] = rows;
    const national = (other?.phone ?? '').slice(3); // +52 and ten digits
    const shown = `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
    await page.goto(`/admin/prospecto?id=${kept?.id}`);
    await page.getByRole('button', { name: 'Editar datos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar datos del prospecto' });
    await dialog.getByLabel('Teléfono').fill(shown);
    await dialog.getByRole('button', { name: 'Guardar datos' }).click();
    const box = dialog
      .getByRole('alert')
      .filter({ has: page.getByRole('heading', { name: 'Ese teléfono ya es de otro prospecto' }) });
    await expect(box).toBeVisible();
    await expect(box.locator('dd').nth(1)).toHaveText(shown);
    await expect(box).not.toContainText('+52');
    // The server's 409 (the phone is taken) is what opens the box.
    expect(consoleErrors.splice(0)).toEqual([expect.stringContaining('409')]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await picture(page, { path: `test-results/panel-details-merge-${width}.png` });
  });
}

/** The header's colour-contrast failures, by axe's own rule (WCAG 1.4.3) alone: some twenty checks a page. */
async function contrast(page: Page): Promise<string[]> {
  const results = await runAxe(page, 'header', { type: 'rule', values: ['color-contrast'] });
  // A check that looked at nothing would pass: the header's text was seen (passed, failed or undecided).
  if (results.passes.length + results.violations.length + results.incomplete.length === 0)
    return ['color-contrast checked nothing in the header'];
  return results.violations.flatMap((violation) => violation.nodes.map((node) => String(node.target)));
}

for (const path of ['/', '/modelos']) {
  test(`${path}: the "Casas modulares" tagline keeps its contrast wherever the sticky header sits`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto(path);
    // In the header and in the footer (on a light plate there).
    await expect(page.getByText('Casas modulares', { exact: true })).toHaveCount(2);
    expect(await contrast(page)).toEqual([]);
    // The translucent header over each part of the page in turn.
    const tops = await page.evaluate(() =>
      [...document.querySelectorAll('main > *, footer')].map(
        (part) => part.getBoundingClientRect().top + window.scrollY,
      ),
    );
    for (const top of tops) {
      for (const y of [top, top + 200]) {
        await page.evaluate((to) => window.scrollTo({ top: to, behavior: 'instant' }), y);
        expect(await contrast(page), `scrolled to ${Math.round(y)}`).toEqual([]);
      }
    }
  });
}
