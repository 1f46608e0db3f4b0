import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { site } from '../../src/data/site.ts';

const DIST = path.resolve(import.meta.dirname, '../../dist');
const PAGES = readdirSync(DIST).filter((file) => file.endsWith('.html'));
const html = (file: string) => readFileSync(path.join(DIST, file), 'utf8');
const meta = (page: string, pattern: RegExp) => pattern.exec(page)?.[1];

function jsonLd(page: string): Record<string, unknown>[] {
  return [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((match) =>
    JSON.parse(match[1] as string),
  );
}

describe('the built pages', () => {
  it('are all there', () => {
    expect(PAGES.sort()).toEqual([
      '404.html',
      'admin.html',
      'auth.html',
      'aviso-de-privacidad.html',
      'cita.html',
      'editor.html',
      'estimacion.html',
      'index.html',
      'modelos.html',
      'pagar.html',
      'prefiltro-socios.html',
      'prefiltro.html',
      'solicitud-no-enviada.html',
      'terminos-y-condiciones.html',
    ]);
  });

  it('pass html-validate', async () => {
    const validator = new HtmlValidate({
      extends: ['html-validate:recommended'],
      rules: {
        // React's server output: camelCase attributes and self-closed void elements are valid HTML.
        'attr-case': 'off',
        'void-style': 'off',
        'attribute-boolean-style': 'off',
        // Astro puts its one-line island style (astro-island { display: contents }) before the first island.
        'element-permitted-content': 'off',
      },
    });
    const problems: string[] = [];
    for (const file of PAGES) {
      const report = await validator.validateString(html(file), file);
      for (const message of report.results.flatMap((result) => result.messages)) {
        problems.push(`${file}:${message.line} ${message.ruleId} ${message.message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('load nothing of the payment provider: Stripe is its own hosted page, after the buyer presses pay (issue #41)', () => {
    for (const file of PAGES) {
      const page = html(file);
      expect(page, file).not.toMatch(/js\.stripe\.com|stripe\.network|checkout\.stripe\.com/);
      for (const script of page.matchAll(/<script[^>]+src="([^"]+)"/g)) expect(script[1], file).toMatch(/^\/(?!\/)/);
    }
  });

  it('tell a visitor whose form the browser sent by itself that it was not sent, and how to go back to it', () => {
    const page = html('solicitud-no-enviada.html');
    expect(page).toContain('<h1 class="text-3xl font-bold">Tu solicitud no se envió</h1>');
    expect(page).toContain('lo que escribiste sigue en el formulario');
    expect(page).toMatch(/href="https:\/\/wa\.me\/\d+/);
  });

  it('each have their own title, description and absolute canonical URL', () => {
    const titles = new Set<string>();
    // Not for search engines: the 404, the panel, its sign-in, the content editor (decision 0038) and
    // a buyer's own appointment (/cita, decision 0059), its payment (/pagar, decision 0070) and the page of a form
    // the browser sent by itself (/solicitud-no-enviada).
    const hidden = [
      '404.html',
      'admin.html',
      'auth.html',
      'cita.html',
      'editor.html',
      'pagar.html',
      'solicitud-no-enviada.html',
    ];
    for (const file of PAGES.filter((name) => !hidden.includes(name))) {
      const page = html(file);
      const title = meta(page, /<title>(.*?)<\/title>/s);
      expect(title, file).toBeTruthy();
      expect(title?.length, file).toBeLessThanOrEqual(70);
      titles.add(title as string);
      expect(meta(page, /<meta name="description" content="([^"]{50,170})"/), file).toBeTruthy();
      const canonical = meta(page, /<link rel="canonical" href="([^"]+)"/);
      expect(canonical, file).toMatch(/^https:\/\/[^/]+(\/[a-z-]*)?$/);
      expect(page, file).toContain('<html lang="es-MX"');
    }
    expect(titles.size).toBe(PAGES.length - hidden.length);
    for (const file of hidden) {
      expect(html(file), file).toContain('<meta name="robots" content="noindex"');
    }
  });

  it('share an Open Graph image that the build produced', () => {
    const image = meta(html('index.html'), /<meta property="og:image" content="([^"]+)"/);
    expect(image).toMatch(/^https:\/\/.+\.png$/);
    expect(existsSync(path.join(DIST, new URL(image as string).pathname))).toBe(true);
  });

  it('describe the business with its three offices, and each model of src/data/models.json as a product in MXN', () => {
    const [business] = jsonLd(html('index.html'));
    expect(business).toMatchObject({ '@type': 'HomeAndConstructionBusiness' });
    expect(
      ((business?.location ?? []) as { address: { addressLocality: string } }[]).map(
        (place) => place.address.addressLocality,
      ),
    ).toEqual(['Mérida', 'Ciudad de México', 'Berlín']);

    const [list] = jsonLd(html('modelos.html'));
    const products = (
      (list?.itemListElement ?? []) as { item: { name: string; offers: { price: number; priceCurrency: string } } }[]
    ).map((entry) => [entry.item.name, entry.item.offers.price, entry.item.offers.priceCurrency]);
    // From the data file, so that a marketer changing a price or a model does not break this test.
    const { models } = JSON.parse(readFileSync(path.resolve(DIST, '../src/data/models.json'), 'utf8')) as {
      models: { order: number; name: string; priceFromMxn: number }[];
    };
    expect(models.length).toBeGreaterThan(0);
    expect(products).toEqual(
      models.sort((a, b) => a.order - b.order).map((model) => [model.name, model.priceFromMxn, 'MXN']),
    );
  });

  it('list the public pages in sitemap.xml, which robots.txt names', () => {
    const sitemap = readFileSync(path.join(DIST, 'sitemap.xml'), 'utf8');
    const urls = [...sitemap.matchAll(/<loc>(.*?)<\/loc>/g)].map((match) => new URL(match[1] as string).pathname);
    expect(urls).toEqual([
      '/',
      '/modelos',
      '/prefiltro',
      '/estimacion',
      '/prefiltro-socios',
      '/aviso-de-privacidad',
      '/terminos-y-condiciones',
    ]);
    const robots = readFileSync(path.join(DIST, 'robots.txt'), 'utf8');
    expect(robots).toMatch(/^Sitemap: https:\/\/.+\/sitemap\.xml$/m);
    expect(robots).toContain('Disallow: /admin');
  });

  it('take the fiscal address, the e-mails and the founder from src/data/site.json', () => {
    const escaped = (text: string) => text.replace(/&/g, '&#38;').replace(/</g, '&#60;');
    for (const [file, email] of [
      ['aviso-de-privacidad.html', site.privacyEmail],
      ['terminos-y-condiciones.html', site.email],
    ] as const) {
      const page = html(file);
      expect(page, file).toContain(`en ${escaped(site.legal.address)}, `);
      expect(page, file).toContain(`<a href="mailto:${email}">${email}</a>`);
      for (const token of ['{email}', '{domicilio}']) expect(page, file).not.toContain(token);
    }
    expect(html('index.html')).toContain(`<span class="font-bold">${escaped(site.founder.name)}</span>`);
  });

  it('give every image a width, a height and Spanish alt text', () => {
    for (const file of PAGES) {
      for (const [tag] of html(file).matchAll(/<img [^>]+>/g)) {
        expect(tag, file).toMatch(/ width="\d+"/);
        expect(tag, file).toMatch(/ height="\d+"/);
        expect(tag, file).toMatch(/ alt="[^"]{10,}"/);
      }
    }
  });
});
