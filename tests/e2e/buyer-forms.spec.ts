import { expect, keptToasts, test, toast, uniqueName } from './fixtures.ts';

test.describe('/prefiltro', () => {
  test('shows "Primer paso hacia tu casa" with the 31 states, without Ciudad de México', async ({ page }) => {
    await page.goto('/prefiltro');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Primer paso hacia tu casa');
    const states = await page.getByLabel('Estado').locator('option:not([value=""])').allTextContents();
    expect(states).toHaveLength(31);
    expect(states).toContain('Yucatán');
    expect(states).not.toContain('Ciudad de México');
    await expect(page.getByRole('link', { name: 'Aviso de privacidad' }).first()).toHaveAttribute(
      'href',
      '/aviso-de-privacidad',
    );
  });

  test('runs nothing of the form before a touch: its module graph is prefetched once the page is idle, and hydrates at the touch', async ({
    page,
  }) => {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto('/prefiltro');
    const form = page.locator('form[aria-label="Primer paso hacia tu casa"]');
    const island = page.locator('astro-island', { has: form });
    const graph = ((await island.getAttribute('data-preload')) ?? '').split(' ');
    expect(graph.length).toBeGreaterThan(3);
    // Once idle after the load: the whole graph asked for at the lowest priority (decision 0031)…
    await expect(page.locator('link[rel="prefetch"]')).toHaveCount(graph.length);
    await expect.poll(() => graph.filter((path) => !requested.includes(path))).toEqual([]);
    // …and none of it run: the form is still the server's HTML.
    await expect(form).toHaveAttribute('data-enhanced', 'pending');
    await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);

    await page.getByLabel('Nombre de contacto').focus();
    await expect(form).toHaveAttribute('data-enhanced', 'ready');
    // At the touch, asked for together as module preloads, before any import had to find them.
    await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(graph.length);
  });

  test('requires name, phone, municipality and land option', async ({ page }) => {
    await page.goto('/prefiltro');
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    await expect(toast(page, 'Información incompleta')).toContainText(
      'Por favor completa todos los campos requeridos.',
    );
    await expect(page.locator('.toast-destructive')).toHaveCount(1);
    for (const message of [
      'Escribe tu nombre.',
      'Escribe tu número de WhatsApp.',
      'Escribe tu municipio.',
      'Dinos si ya tienes terreno.',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await expect(page.getByLabel('Nombre de contacto')).toBeFocused();
  });

  test('stores the answers as docs/product.md §11 maps them, keeps preFilterData and goes to /modelos', async ({
    page,
    sql,
  }) => {
    const name = uniqueName('Prefiltro');
    await page.goto('/?utm_source=facebook&utm_campaign=otono');
    await page.getByRole('link', { name: 'Estoy listo para comprar' }).click();
    await expect(page).toHaveURL(/\/prefiltro$/);
    await page.getByLabel('Nombre de contacto').fill(name);
    await page.getByLabel('Teléfono (WhatsApp)').fill('(999) 765-4321');
    await page.getByLabel('Estado').selectOption('Yucatán');
    await page.getByLabel('Municipio').fill('Progreso');
    await page.getByLabel('Necesito terreno y casa').check();
    await page.getByLabel('En 2 a 4 meses').check();
    await page.getByLabel('Renta corta (vacacional)').check();
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();

    await expect(page).toHaveURL(/\/modelos$/);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('preFilterData'))) ?? 'null');
    expect(stored).toEqual({
      name,
      phone: '(999) 765-4321',
      state: 'Yucatán',
      municipality: 'Progreso',
      land_option: 'necesito-terreno-y-casa',
      timeline: '2-4-meses',
      objective: 'renta-corta',
    });
    const rows = await sql(
      `SELECT source, phone, state, municipality, has_land, need_land_help, house_size, utm_source, utm_campaign, landing_path
       FROM quote_requests WHERE name = $1`,
      [name],
    );
    expect(rows).toEqual([
      {
        source: 'prefiltro',
        phone: '+529997654321',
        state: 'Yucatán',
        municipality: 'Progreso',
        has_land: 'necesito-terreno-y-casa',
        need_land_help: '2-4-meses',
        house_size: 'renta-corta',
        utm_source: 'facebook',
        utm_campaign: 'otono',
        landing_path: '/?utm_source=facebook&utm_campaign=otono',
      },
    ]);
  });

  test('keeps the visitor on the page with the data typed when saving fails', async ({ page, consoleErrors }) => {
    // A refusal (a 4xx other than 408 and 429); no answer, 408, 429 and 5xx wait in the outbox (outbox.spec.ts).
    await page.route('**/api/quote-requests', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: '{}' }),
    );
    await page.goto('/prefiltro');
    await page.getByLabel('Nombre de contacto').fill('Sin conexión');
    await page.getByLabel('Teléfono (WhatsApp)').fill('9991234567');
    await page.getByLabel('Municipio').fill('Mérida');
    await page.getByLabel('Ya tengo terreno').check();
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    await expect(toast(page, 'Error')).toContainText('No se pudo guardar tu información. Inténtalo de nuevo.');
    await expect(page).toHaveURL(/\/prefiltro$/);
    await expect(page.getByLabel('Nombre de contacto')).toHaveValue('Sin conexión');
    await expect(page.getByLabel('Ya tengo terreno')).toBeChecked();
    expect(consoleErrors.splice(0).some((message) => message.includes('No se pudo enviar el formulario'))).toBe(true);
  });
});

test.describe('/estimacion', () => {
  test('shows the trust strip and the defaults: 1 level, basic finishes, budget not known', async ({ page }) => {
    await page.goto('/estimacion');
    await expect(page.getByRole('list', { name: 'Por qué confiar en nosotros' }).getByRole('listitem')).toHaveCount(4);
    await expect(page.getByLabel('1 nivel')).toBeChecked();
    await expect(page.getByLabel('Básico')).toBeChecked();
    await expect(page.getByLabel('Presupuesto aproximado')).toHaveValue('Aún no lo sé');
  });

  test('asks for the required fields with the toast of docs/product.md §12.1', async ({ page }) => {
    await page.goto('/estimacion');
    await page.getByLabel('Tamaño del terreno (m²)').fill('mucho');
    await page.getByRole('button', { name: 'Calcular mi estimación' }).click();
    await expect(toast(page, 'Error')).toContainText('Por favor completa todos los campos requeridos');
    await expect(page.getByText('Escribe los metros cuadrados con números, de 1 a 1,000,000.')).toBeVisible();
  });

  test('stores the estimate with its fixed values, keeps estimateData and thanks on /modelos', async ({
    page,
    sql,
  }) => {
    const name = uniqueName('Estimación');
    const toasts = await keptToasts(page);
    await page.goto('/estimacion');
    await page.getByLabel('Nombre').fill(name);
    await page.getByLabel('WhatsApp').fill('999 555 0101');
    await page.getByLabel('Tamaño del terreno (m²)').fill('320');
    await page.getByLabel('2 niveles').check();
    await page.getByLabel('Premium').check();
    await page.getByLabel('Presupuesto aproximado').selectOption('800k-1.2M');
    await page.getByRole('button', { name: 'Calcular mi estimación' }).click();

    await expect(page).toHaveURL(/\/modelos$/);
    await expect.poll(toasts).toMatch(/¡Solicitud enviada!Un asesor te contactará en las próximas 24 horas/);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('estimateData'))) ?? 'null')).toEqual({
      name,
      phone: '999 555 0101',
      terrain_size: '320',
      levels: '2',
      finishes: 'premium',
      budget: '800k-1.2M',
    });
    const rows = await sql(
      `SELECT source, phone, email, terrain_size, levels, finishes, budget, state, municipality, has_land, timeline, objective
       FROM quote_requests WHERE name = $1`,
      [name],
    );
    expect(rows).toEqual([
      {
        source: 'estimacion',
        phone: '+529995550101',
        email: null,
        terrain_size: '320',
        levels: 2,
        finishes: 'premium',
        budget: '800k-1.2M',
        state: 'Yucatán',
        municipality: 'Mérida',
        has_land: 'si',
        timeline: '1-3 meses',
        objective: 'cotizacion',
      },
    ]);
  });
});
