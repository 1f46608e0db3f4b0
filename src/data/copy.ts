import landingJson from './landing.json';
import pagesJson from './pages.json';
import { parseData } from './problems.ts';
import { landingSchema, pagesSchema } from './schemas.ts';

/** Page copy lives in src/data/*.json; their schemas (schemas.ts) catch a typo at build time, in Spanish. */
export const landing = parseData(landingSchema, landingJson, 'src/data/landing.json');
export const pages = parseData(pagesSchema, pagesJson, 'src/data/pages.json');
