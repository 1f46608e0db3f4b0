import type { z } from 'zod';
import { parseData } from './problems.ts';
import { siteSchema } from './schemas.ts';
import raw from './site.json' with { type: 'json' };

/**
 * Every fact about the business that the pages show: marketers change
 * src/data/site.json, the build checks it against its schema (schemas.ts) and
 * says in Spanish what is wrong. The facts still listed in its `placeholders`
 * are not the business's real data yet: `npm run check:launch` lists them.
 */
export type SiteFacts = z.output<typeof siteSchema>;

export const site: SiteFacts = parseData(siteSchema, raw, 'src/data/site.json');

/** The chat link with its preset greeting. */
export const whatsappUrl = `https://wa.me/${site.whatsapp.number}?text=${encodeURIComponent(site.whatsapp.greeting)}`;

export { formatMxn } from './catalogue.ts';
