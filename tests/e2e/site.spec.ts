import { accessibilityViolations, expect, pastFirstIdle, test, toast } from './fixtures.ts';

const PAGES = [
  '/',
  '/modelos',
  '/prefiltro',
  '/estimacion',
  '/prefiltro-socios',
  '/aviso-de-privacidad',
  '/terminos-y-condiciones',
];

test.describe('every page', () => {
  for (const path of PAGES) {
    test(`${path} has no accessibility violation (WCAG 2.1 A/AA, 2.2 AA, best practices, experimental rules)`, async ({
      page,
    }) => {
      await page.goto(path);
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  }

  test('the open quick-quote dialog, the 404 page and the page of a form not sent have no accessibility violation', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto('/no-existe');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(consoleErrors.splice(0)).toEqual([expect.stringContaining('404')]);

    await page.goto('/solicitud-no-enviada');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  test('header and footer lead where docs/product.md §2 says', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    for (const [name, href] of [
      ['Modelos', '/modelos'],
      ['Estimación', '/estimacion'],
      ['Socios', '/prefiltro-socios'],
    ]) {
      await expect(nav.getByRole('link', { name })).toHaveAttribute('href', href as string);
    }
    await nav.getByRole('link', { name: 'Modelos' }).click();
    await expect(nav.getByRole('link', { name: 'Modelos' })).toHaveAttribute('aria-current', 'page');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Acceso administrador' })).toHaveAttribute('href', '/auth');
    await expect(footer.getByRole('link', { name: 'Aviso de privacidad' })).toHaveAttribute(
      'href',
      '/aviso-de-privacidad',
    );
    await expect(footer.getByRole('link', { name: 'Términos y condiciones' })).toHaveAttribute(
      'href',
      '/terminos-y-condiciones',
    );
    await expect(footer.getByRole('link', { name: 'Sitio oficial' })).toHaveAttribute('href', /^https:\/\//);
    await expect(footer.getByRole('link', { name: /^\d{3}\s\d{3}\s\d{4}$/ })).toHaveAttribute(
      'href',
      /^tel:\+52\d{10}$/,
    );
    await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    for (const city of ['Mérida', 'Ciudad de México', 'Berlín'])
      await expect(footer.getByText(city, { exact: true })).toBeVisible();
    for (const network of ['Facebook', 'Instagram', 'YouTube', 'TikTok']) {
      await expect(footer.getByRole('link', { name: network })).toHaveAttribute('rel', 'noopener');
    }
    const chat = footer.getByRole('link', { name: 'Chatea por WhatsApp' });
    await expect(chat).toHaveAttribute('target', '_blank');
    await expect(chat).toHaveAttribute('rel', 'noopener');
    expect(decodeURIComponent((await chat.getAttribute('href')) ?? '')).toMatch(
      /^https:\/\/wa\.me\/52\d{10}\?text=¡Hola!/,
    );
  });

  test('every form links to the privacy notice next to its submit button', async ({ page }) => {
    for (const path of ['/prefiltro', '/estimacion', '/prefiltro-socios']) {
      await page.goto(path);
      await expect(page.getByRole('form').getByRole('link', { name: 'Aviso de privacidad' })).toHaveAttribute(
        'href',
        '/aviso-de-privacidad',
      );
    }
    await page.goto('/');
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Aviso de privacidad' })).toBeVisible();
  });

  test('the privacy notice names each form, the rights to ask for deletion and the contact address', async ({
    page,
  }) => {
    await page.goto('/aviso-de-privacidad');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Aviso de privacidad');
    const text = (await page.locator('main').textContent()) ?? '';
    for (const words of ['ARCO', 'WhatsApp', 'socio', 'estimación', 'almacenamiento local'])
      expect(text).toMatch(new RegExp(words, 'i'));
    await expect(page.getByRole('link', { name: /^privacidad@/ }).first()).toHaveAttribute(
      'href',
      /^mailto:privacidad@/,
    );
    expect(text).not.toContain('{email}');
  });
});

test.describe('landing page', () => {
  test('shows its sections in order, with the three hero buttons', async ({ page }) => {
    await page.goto('/');
    const headings = await page.getByRole('heading', { level: 2 }).allInnerTexts();
    expect(headings.length).toBeGreaterThanOrEqual(6);
    await expect(page.getByRole('link', { name: 'Estoy listo para comprar' })).toHaveAttribute('href', '/prefiltro');
    const advisor = page.getByRole('link', { name: 'Hablar con un asesor (WhatsApp)' });
    await expect(advisor).toHaveAttribute('target', '_blank');
    await expect(advisor).toHaveAttribute('rel', 'noopener');
    await expect(page.getByRole('link', { name: 'Quiero una asociación con propósito' })).toHaveAttribute(
      'href',
      '/prefiltro-socios',
    );
    for (const fact of ['30%', '10%', '$899 MXN', '30 minutos', '8 preguntas']) {
      await expect(page.locator('main')).toContainText(fact);
    }
  });

  test('loads no island code before the visitor touches one', async ({ page }) => {
    const scripts: string[] = [];
    page.on(
      'request',
      (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname),
    );
    await page.goto('/');
    await pastFirstIdle(page);
    expect(scripts.filter((path) => /client|QuickQuoteForm|react/i.test(path))).toEqual([]);
    await page.getByRole('button', { name: 'Estimación rápida (2 min)' }).click();
    await expect(page.getByRole('form', { name: 'Estimación rápida' })).toHaveAttribute('data-enhanced', 'ready');
    expect(scripts.some((path) => path.includes('QuickQuoteForm'))).toBe(true);
  });

  test('the video loads nothing until played, then the player', async ({ page }) => {
    const video: string[] = [];
    await page.route(/youtube/, (route) => {
      video.push(route.request().url());
      return route.fulfill({ contentType: 'text/html', body: '<title>Video</title>' });
    });
    await page.goto('/');
    await pastFirstIdle(page);
    expect(video).toEqual([]);
    await page.getByRole('link', { name: /Ver video/ }).click();
    await expect(page.locator('iframe[src*="youtube-nocookie.com/embed/"]')).toBeVisible();
    expect(page.url()).not.toContain('youtube');
  });

  test('the scroll progress bar fills as the page scrolls', async ({ page }) => {
    await page.goto('/');
    const bar = page.locator('.scroll-progress');
    const scale = () => bar.evaluate((node) => new DOMMatrix(getComputedStyle(node).transform).a);
    expect(await scale()).toBeLessThan(0.05);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(scale).toBeGreaterThan(0.95);
  });
});

test.describe('/modelos', () => {
  test('shows the headline, four badges, five models with peso prices and the $499 advisory', async ({ page }) => {
    await page.goto('/modelos');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Comienza a construir desde $60,000 MXN (módulo básico, sin acabados) y recibe tu casa en 4 a 6 semanas',
    );
    await expect(page.getByRole('list', { name: 'Ventajas' }).getByRole('listitem')).toHaveCount(4);
    const prices = await page.locator('.model-price').allInnerTexts();
    expect(prices).toEqual(['$229,000 MXN', '$319,000 MXN', '$349,000 MXN', '$386,250 MXN', '$760,800 MXN']);
    for (const name of ['Salvia Glamping', 'Meridian', 'Lumo', 'Sand 25', 'Sand Plus']) {
      await expect(page.getByRole('heading', { name, level: 3 })).toBeVisible();
    }
    await expect(page.getByText('2-4 meses')).toBeVisible();
    await expect(page.locator('main')).toContainText('$499 MXN');
    // Booked through the picker (issue #40) as "por pagar"; its confirmation opens the payment link.
    const reserve = page.getByRole('button', { name: 'Agendar mi asesoría' });
    await expect(reserve).toHaveAttribute('commandfor', 'agenda');
    await expect(reserve).toHaveAttribute('data-kind', 'asesoria-personalizada');
  });

  test('the gallery has 17 images, the first three interiors, and moves by keyboard', async ({ page }, testInfo) => {
    await page.goto('/modelos');
    const gallery = page.getByRole('region', { name: 'Galería de proyectos' });
    await gallery.scrollIntoViewIfNeeded();
    await expect(gallery).toHaveClass(/swiper-initialized/);
    const slides = gallery.locator('.swiper-slide');
    await expect(slides).toHaveCount(17);
    const kinds = await slides.locator('figcaption > span:first-child').allInnerTexts();
    expect(kinds.slice(0, 3).every((kind) => /interior/i.test(kind))).toBe(true);
    expect(kinds.slice(3).every((kind) => /exterior/i.test(kind))).toBe(true);

    const perView = testInfo.project.name === 'mobile' ? 1 : 3;
    const visible = await slides.evaluateAll((nodes) => {
      const frame = nodes[0]?.parentElement?.parentElement?.getBoundingClientRect();
      return nodes.filter((node) => {
        const box = node.getBoundingClientRect();
        return frame && box.left >= frame.left - 1 && box.right <= frame.right + 1;
      }).length;
    });
    expect(visible).toBe(perView);

    await page.getByRole('button', { name: 'Imagen siguiente' }).first().focus();
    await page.keyboard.press('Enter');
    await expect(slides.nth(1)).toHaveClass(/swiper-slide-active/);
    await page.keyboard.press('ArrowRight');
    await expect(slides.nth(2)).toHaveClass(/swiper-slide-active/);
  });

  test('the first screen requests no script file: Swiper comes from the page script when the gallery nears the screen', async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/modelos');
    await expect(page.locator('script[src]')).toHaveCount(0);
    const gallery = page.getByRole('region', { name: 'Galería de proyectos' });
    const module = await gallery.getAttribute('data-near-screen');
    await gallery.scrollIntoViewIfNeeded();
    await expect(gallery).toHaveClass(/swiper-initialized/);
    expect(scripts).toEqual([module]);
  });

  test('the gallery, once Swiper has started, has no accessibility violation: its dots are 24 px targets', async ({
    page,
  }) => {
    await page.goto('/modelos');
    const gallery = page.getByRole('region', { name: 'Galería de proyectos' });
    await gallery.scrollIntoViewIfNeeded();
    await expect(gallery).toHaveClass(/swiper-initialized/);
    const dots = gallery.getByRole('button', { name: /^Ir a la imagen \d+$/ });
    await expect(dots.first()).toBeVisible();
    for (const box of await dots.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect()))) {
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
    }
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  test('greets the visitor sent from a form with the success toast only once', async ({ page }) => {
    await page.goto('/modelos');
    await expect(toast(page, '¡Gracias por tu interés!')).toHaveCount(0);
  });
});

test.describe('unknown addresses', () => {
  test('answer 404 with a link home, and report the path', async ({ page, consoleErrors }) => {
    const report = page.waitForRequest((request) => request.url().endsWith('/api/not-found'));
    const response = await page.goto('/casas/no-existe?x=1');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
    await expect(page.getByRole('link', { name: 'Regresar al inicio' })).toHaveAttribute('href', '/');
    expect(consoleErrors.splice(0)).toEqual([expect.stringContaining('404')]);
    expect((await report).postDataJSON()).toMatchObject({ path: '/casas/no-existe?x=1' });
  });
});

test.describe('a form whose code never arrives', () => {
  test('says the request was not sent yet, keeps what was typed, and sends nothing', async ({
    page,
    consoleErrors,
  }) => {
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    // The page script is inline; every island's file fails, as on a phone that lost its signal after the page.
    await page.route(/\/_astro\/.*\.js$/, (route) => route.abort('internetdisconnected'));
    await page.goto('/prefiltro');
    await page.getByLabel('Nombre de contacto').fill('Sin señal');
    await page.getByLabel('Teléfono (WhatsApp)').fill('9991234567');
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    await expect(toast(page, 'Tu solicitud todavía no se envía')).toBeVisible();
    await expect(page).toHaveURL(/\/prefiltro$/);
    await expect(page.getByLabel('Nombre de contacto')).toHaveValue('Sin señal');
    expect(posts).toEqual([]);
    // The failed files are what the console reports.
    expect(
      consoleErrors.splice(0).every((error) => /_astro|dynamically imported|ERR_INTERNET_DISCONNECTED/.test(error)),
    ).toBe(true);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every page is readable and its links work', async ({ page }) => {
    for (const path of PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
    await page.goto('/');
    await page.getByRole('link', { name: 'Estoy listo para comprar' }).click();
    await expect(page).toHaveURL(/\/prefiltro$/);
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Modelos' }).click();
    await expect(page).toHaveURL(/\/modelos$/);
    await expect(page.locator('.swiper-slide img').first()).toBeVisible();
  });

  test('a form sent lands on a page that says it was not sent; Back finds what was typed', async ({ page }) => {
    await page.goto('/prefiltro');
    await page.getByLabel('Nombre de contacto').fill('Sin guion');
    await page.getByLabel('Teléfono (WhatsApp)').fill('9991234567');
    await page.getByRole('button', { name: 'Descubre si es tu momento' }).click();
    await expect(page).toHaveURL(/\/solicitud-no-enviada$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tu solicitud no se envió');
    await expect(page.getByRole('link', { name: 'Escríbenos por WhatsApp' })).toHaveAttribute(
      'href',
      /^https:\/\/wa\.me\//,
    );
    await page.goBack();
    await expect(page.getByLabel('Nombre de contacto')).toHaveValue('Sin guion');
  });
});
