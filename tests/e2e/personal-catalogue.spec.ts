import { expect, picture, test } from './fixtures.ts';

/**
 * Issue #14: /modelos answers the visitor from their own answers, read in
 * their browser (estimateData, preFilterData), nothing sent; and they can
 * clear them. At 390 px.
 */
test.beforeEach(({ browserName: _browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'checked at phone width');
});

test('an estimate sent from /estimacion marks the models within budget and land, greets by name, and can be cleared', async ({
  page,
  consoleErrors,
}) => {
  // The answers as the estimate form keeps them after a real submission (buyer-forms.spec.ts stores one).
  await page.addInitScript(() => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.setItem(
      'estimateData',
      JSON.stringify({
        name: 'Ana María López',
        phone: '9991234567',
        terrain_size: '30',
        levels: '1',
        finishes: 'basico',
        budget: '300k-500k',
      }),
    );
  });
  const posts: string[] = [];
  page.on('request', (request) => request.method() !== 'GET' && posts.push(request.url()));
  await page.goto('/modelos');
  const box = page.locator('#personal-fit');
  await expect(box).toBeVisible();
  await expect(box).toContainText('Hola, Ana: marcamos los 4 modelos que encajan con tu presupuesto y tu terreno.');
  for (const id of ['salvia-glamping', 'meridian', 'lumo', 'sand-25']) {
    await expect(page.locator(`#${id} [data-fit]`)).toContainText('Dentro de tu presupuesto');
    await expect(page.locator(`#${id} [data-fit]`)).toContainText('Cabe en tu terreno');
  }
  await expect(page.locator('#sand-25 [data-fit]')).toContainText('Para 4 personas');
  await expect(page.locator('#sand-plus [data-fit]')).toBeHidden();
  await picture(page, { path: 'test-results/e2e/modelos-personal-390.png' });
  expect(posts).toEqual([]); // read here, never sent

  await page.getByRole('button', { name: 'Borrar mis respuestas' }).click();
  await expect(box).toBeHidden();
  await expect(page.locator('[data-fit]:visible')).toHaveCount(0);
  expect(
    await page.evaluate(() => [localStorage.getItem('estimateData'), localStorage.getItem('preFilterData')]),
  ).toEqual([null, null]);
  await page.reload();
  await expect(box).toBeHidden();
  expect(consoleErrors).toEqual([]);
});

test('after a real pre-filter, /modelos greets the visitor and says an adviser will propose options', async ({
  page,
}) => {
  await page.goto('/prefiltro');
  await page.getByLabel('Nombre de contacto').fill('Carlos Pech Uc');
  await page.getByLabel('Teléfono (WhatsApp)').fill('9997654321');
  await page.getByLabel('Municipio').fill('Progreso');
  await page.getByLabel('Ya tengo terreno').check();
  await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
  await expect(page).toHaveURL(/\/modelos$/);
  await expect(page.locator('#personal-fit')).toContainText(
    'Hola, Carlos: gracias por tus respuestas. Un asesor te contactará con opciones para tu proyecto.',
  );
});
