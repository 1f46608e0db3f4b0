import { z } from 'zod';
import { catalogueValues, fillCatalogueTokens, fillDeep } from './catalogue.ts';
import landingJson from './landing.json';
import modelsJson from './models.json';
import pagesJson from './pages.json';
import { parseData } from './problems.ts';
import { landingSchema, modelSchema, pagesSchema } from './schemas.ts';
import { site } from './site.ts';

/**
 * What the catalogue tokens of the texts say (`{modelos}`, `{precioMinimo}`…,
 * src/data/catalogue.ts): from models.json and site.json's startingPrice, so
 * no text states a number the catalogue contradicts.
 */
export const catalogue = catalogueValues(
  parseData(z.array(modelSchema), modelsJson.models, 'src/data/models.json'),
  site.startingPrice,
);

/** A text of a data file as the page shows it: its tokens filled in. */
export const fill = (text: string) => fillCatalogueTokens(text, catalogue);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
/** Rendered HTML (a legal page) with its tokens filled in, escaped. */
export const fillHtml = (html: string) =>
  fillCatalogueTokens(
    html,
    Object.fromEntries(Object.entries(catalogue).map(([name, value]) => [name, escapeHtml(value)])) as typeof catalogue,
  );

/** Page copy lives in src/data/*.json; their schemas (schemas.ts) catch a typo at build time, in Spanish. */
export const landing = fillDeep(parseData(landingSchema, landingJson, 'src/data/landing.json'), catalogue);
export const pages = fillDeep(parseData(pagesSchema, pagesJson, 'src/data/pages.json'), catalogue);
