import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { galleryImageSchema, legalPageSchema, modelSchema, sellingPointSchema, stepSchema } from './data/schemas.ts';

// The entries' schemas live in src/data/schemas.ts, shared with the build's content
// check (src/integrations/content-check.ts), which reports a broken data file in
// Spanish before Astro reads these collections. Here they only gain Astro's image(). Each
// list file holds its list under one key, a form the editor can write (decision 0038).
const listOf = (key: string) => (text: string) =>
  (JSON.parse(text) as Record<string, Record<string, unknown>[]>)[key] ?? [];

/** The models of /modelos (docs/product.md §3). */
const models = defineCollection({
  loader: file('src/data/models.json', { parser: listOf('models') }),
  schema: ({ image }) => modelSchema.extend({ image: image() }),
});

/** The 17 project images of the /modelos carousel; the first three are interiors. */
const gallery = defineCollection({
  loader: file('src/data/gallery.json', { parser: listOf('images') }),
  schema: ({ image }) => galleryImageSchema.extend({ image: image() }),
});

/** The four selling points of the landing page. */
const sellingPoints = defineCollection({
  loader: file('src/data/selling-points.json', { parser: listOf('points') }),
  schema: sellingPointSchema,
});

/** The five-step purchase cycle (30% to start, staged payments, 10% final). */
const steps = defineCollection({
  loader: file('src/data/steps.json', { parser: listOf('steps') }),
  schema: stepSchema,
});

/** Aviso de privacidad and Términos y condiciones; their schema is the editor's too (decision 0038). */
const legal = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/legal' }),
  schema: legalPageSchema,
});

export const collections = { models, gallery, sellingPoints, steps, legal };
