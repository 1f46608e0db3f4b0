import { describe, expect, it } from 'vitest';
import { catalogueValues, fillCatalogueTokens } from './catalogue.ts';
import { checkContent, type DataFiles, readDataFiles, readLegalTexts } from './content-check.ts';
import { checkLaunch } from './launch.ts';
import { formatProblem } from './problems.ts';
import { siteSchema } from './schemas.ts';

type Entry = Record<string, unknown>;
const shipped = readDataFiles();
const legal = readLegalTexts();
const data = () =>
  structuredClone(shipped.data) as DataFiles & { models: Entry[]; site: Entry; landing: Entry; pages: Entry };
const problems = (files: DataFiles, texts = legal) => checkContent(files, texts).map(formatProblem);

/** A sixth model: cheaper, smaller and slower than the others. */
const casaCeiba = {
  id: 'casa-ceiba',
  order: 6,
  name: 'Casa Ceiba',
  sizeM2: 9.5,
  priceFromMxn: 199000,
  capacity: 2,
  levels: 1,
  delivery: '6-8 semanas',
  description: 'Un módulo mínimo para una persona o una pareja.',
  features: ['9.5 m²', 'Para 2 personas', 'Entrega en 6 a 8 semanas'],
  image: '../assets/models/lumo.svg',
  imageAlt: 'Ilustración del modelo Casa Ceiba',
};
const withSixth = () => {
  const files = data();
  files.models.push(structuredClone(casaCeiba));
  return files;
};

/** The texts as they were before #28, typed with the catalogue's numbers. */
const TODAY = {
  models: 'Cinco modelos de 12 a 57.5 m², con precios desde $229,000 MXN.',
  delivery: 'Fechas claras desde el contrato: de 4 a 6 semanas, y de 2 a 4 meses para Sand Plus.',
  startingPrice: 'Comienza a construir desde $60,000 MXN y recibe tu casa en 4 a 6 semanas',
};
const withText = (files: ReturnType<typeof data>, text: string) => {
  ((files.pages.modelos as Entry).badges as Entry[])[2] = { icon: 'calendar', title: 'Plazos', text };
  return files;
};
const at = 'src/data/pages.json, campo "modelos.badges", elemento 3, campo "text"';

describe('the catalogue tokens', () => {
  const values = () => {
    const files = withSixth();
    return catalogueValues(files.models as never, siteSchema.parse(files.site).startingPrice);
  };

  it('say what the models say, and follow a sixth model', () => {
    const site = siteSchema.parse(shipped.data.site);
    expect(catalogueValues(shipped.data.models as never, site.startingPrice)).toEqual({
      modelos: 'cinco',
      precioMinimo: '$229,000 MXN',
      m2Minimo: '12',
      m2Maximo: '57.5',
      entregaMasCorta: '4 a 6 semanas',
      entregas: 'de 4 a 6 semanas y de 2 a 4 meses para Sand Plus',
      precioDesde: '$60,000 MXN',
      desdeIncluye: 'módulo básico, sin acabados',
    });
    expect(values()).toMatchObject({
      modelos: 'seis',
      precioMinimo: '$199,000 MXN',
      m2Minimo: '9.5',
      entregas: 'de 4 a 6 semanas, de 6 a 8 semanas para Casa Ceiba y de 2 a 4 meses para Sand Plus',
    });
  });

  it('fill a text, with a capital at the start of a sentence, and leave an unknown one for the check', () => {
    expect(
      fillCatalogueTokens('{Modelos} modelos de {m2Minimo} a {m2Maximo} m², desde {precioMinimo}. {otro}', values()),
    ).toBe('Seis modelos de 9.5 a 57.5 m², desde $199,000 MXN. {otro}');
  });
});

describe('texts the data contradicts', () => {
  it('find nothing in the texts as shipped, which use the tokens', () => {
    expect(problems(shipped.data)).toEqual([]);
    expect(problems(withSixth())).toEqual([]);
  });

  it('refuse a count of models the catalogue contradicts', () => {
    expect(problems(withText(withSixth(), TODAY.models))).toContain(
      `${at}: dice "Cinco modelos", pero el catálogo tiene 6 modelos: escribe {modelos} modelos y el número seguirá al catálogo.`,
    );
  });

  it('refuse a size range the catalogue contradicts', () => {
    expect(problems(withText(withSixth(), TODAY.models))).toContain(
      `${at}: dice "de 12 a 57.5 m²", pero los modelos van de 9.5 a 57.5 m²: escribe de {m2Minimo} a {m2Maximo} m².`,
    );
  });

  it('refuse a "desde" price typed into a text, whether the data agrees or not', () => {
    expect(problems(withText(data(), TODAY.models))).toEqual([
      `${at}: dice "desde $229,000 MXN": escribe {precioMinimo}, que sigue al precio del modelo más barato (Salvia Glamping).`,
    ]);
    expect(problems(withText(data(), TODAY.startingPrice))).toContain(
      `${at}: dice "desde $60,000 MXN": escribe {precioDesde} ({desdeIncluye}), que toma el precio y a qué se refiere de site.json (startingPrice).`,
    );
    expect(problems(withText(withSixth(), TODAY.models))).toContain(
      `${at}: dice "desde $229,000 MXN", pero el modelo más barato (Casa Ceiba) cuesta $199,000 MXN y el precio "desde" de site.json es $60,000 MXN: escribe {precioMinimo} o {precioDesde} ({desdeIncluye}).`,
    );
  });

  it('refuse {precioDesde} without what it refers to beside it', () => {
    expect(problems(withText(data(), 'Desde {precioDesde}.'))).toEqual([
      `${at}: usa {precioDesde} sin decir a qué se refiere: escribe también {desdeIncluye} en el mismo texto, por ejemplo "desde {precioDesde} ({desdeIncluye})".`,
    ]);
  });

  it('refuse delivery times that leave out a model', () => {
    expect(problems(withText(data(), TODAY.delivery))).toEqual([]);
    expect(problems(withText(withSixth(), TODAY.delivery))).toEqual([
      `${at}: dice "4 a 6 semanas", pero Casa Ceiba se entrega en 6 a 8 semanas: escribe {entregaMasCorta} (el plazo más corto) o {entregas} (todos los plazos, con sus modelos).`,
    ]);
    expect(problems(withText(data(), TODAY.startingPrice))).toContain(
      `${at}: dice "4 a 6 semanas", pero Sand Plus se entrega en 2 a 4 meses: escribe {entregaMasCorta} (el plazo más corto) o {entregas} (todos los plazos, con sus modelos).`,
    );
  });

  it("refuse a model's own texts that contradict its size or delivery, and an unknown token", () => {
    const files = data();
    const lumo = files.models[2] as Entry;
    lumo.features = ['23 m² en un espacio abierto', 'Para 2 personas', 'Entrega en 6 a 8 semanas'];
    (files.landing.paths as { models: Entry }).models.text = 'Desde {precio}.';
    expect(problems(files)).toEqual([
      'src/data/landing.json, campo "paths.models.text": {precio} no es un dato que la página sepa poner: usa {modelos}, {precioMinimo}, {m2Minimo}, {m2Maximo}, {entregaMasCorta}, {entregas}, {precioDesde}, {desdeIncluye}, o escribe el texto tal cual.',
      'src/data/models.json, modelo "lumo" (núm. 3), campo "features", elemento 1: dice "23 m²", pero la superficie de este modelo (sizeM2) es 22.21 m².',
      'src/data/models.json, modelo "lumo" (núm. 3), campo "features", elemento 3: dice "6 a 8 semanas", pero el tiempo de entrega de este modelo (delivery) es "4-6 semanas".',
    ]);
  });

  it('count a limit on the text as the page shows it, tokens filled in', () => {
    const files = data();
    (files.pages.modelos as { seo: Entry }).seo.description = `${'x'.repeat(150)} {precioMinimo}`;
    expect(problems(files)).toEqual([
      'src/data/pages.json, campo "modelos.seo.description": admite como máximo 160 caracteres (tiene 163): acórtalo.',
    ]);
  });
});

describe('the launch check of the "desde" price', () => {
  it('refuses a "desde" price lower than anything the site offers', () => {
    const site = siteSchema.parse({ ...(shipped.data.site as Entry), placeholders: [] });
    const startingPrice = (problems: ReturnType<typeof checkLaunch>) =>
      problems.filter((problem) => problem.field?.[0] === 'startingPrice').map(formatProblem);
    expect(startingPrice(checkLaunch(site, [], shipped.data.models as never))).toEqual([
      'src/data/site.json, campo "startingPrice.amountMxn": el precio "desde" ($60,000 MXN, "módulo básico, sin acabados") es menor que todo lo que ofrece el sitio: el modelo más barato, Salvia Glamping, cuesta $229,000 MXN. Agrega al catálogo lo que cuesta ese precio, o escribe el precio del modelo más barato.',
    ]);
    const offered = { ...site, startingPrice: { amountMxn: 229000, refersTo: 'el modelo Salvia Glamping' } };
    expect(startingPrice(checkLaunch(offered, [], shipped.data.models as never))).toEqual([]);
  });
});
