import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { PRIVACY_NOTICE_VERSION } from './data/legal.ts';

/** The five base models of /modelos (spec, section 3). */
const models = defineCollection({
  loader: file('src/data/models.json'),
  schema: ({ image }) =>
    z
      .object({
        id: z.string(),
        order: z.number().int().positive(),
        name: z.string().describe('Nombre del modelo'),
        sizeM2: z.number().positive().describe('Superficie en m²'),
        priceFromMxn: z.number().int().positive().describe('Precio "desde", en pesos'),
        capacity: z.number().int().positive().describe('Personas'),
        delivery: z.string().describe('Tiempo de entrega, p. ej. "4-6 semanas"'),
        description: z.string().max(220),
        features: z.array(z.string().max(70)).min(3).max(6),
        image: image(),
        imageAlt: z.string().max(140),
      })
      .strict(),
});

/** The 17 project images of the /modelos carousel; the first three are interiors. */
const gallery = defineCollection({
  loader: file('src/data/gallery.json'),
  schema: ({ image }) =>
    z
      .object({
        id: z.string(),
        order: z.number().int().positive(),
        kind: z.enum(['interior', 'exterior']),
        image: image(),
        alt: z.string().max(140),
      })
      .strict(),
});

const ICONS = ['clock', 'shield', 'leaf', 'sparkles', 'home', 'badge'] as const;

/** The four selling points of the landing page. */
const sellingPoints = defineCollection({
  loader: file('src/data/selling-points.json'),
  schema: z
    .object({
      id: z.string(),
      order: z.number().int().positive(),
      icon: z.enum(ICONS),
      title: z.string().max(50),
      text: z.string().max(180),
    })
    .strict(),
});

/** The five-step purchase cycle (30% to start, staged payments, 10% final). */
const steps = defineCollection({
  loader: file('src/data/steps.json'),
  schema: z
    .object({
      id: z.string(),
      order: z.number().int().min(1).max(5),
      title: z.string().max(50),
      text: z.string().max(220),
      payment: z.string().nullable(),
    })
    .strict(),
});

/** Aviso de privacidad and Términos y condiciones. */
const legal = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/legal' }),
  schema: z
    .object({ title: z.string(), description: z.string().max(160), updated: z.coerce.date() })
    .strict()
    // Leads record the privacy notice's version (issue #14): the notice and src/data/legal.ts move together.
    .refine(
      (notice) =>
        notice.title !== 'Aviso de privacidad' || notice.updated.toISOString().slice(0, 10) === PRIVACY_NOTICE_VERSION,
      {
        message: `La fecha "updated" del aviso de privacidad debe ser la de PRIVACY_NOTICE_VERSION en src/data/legal.ts (${PRIVACY_NOTICE_VERSION}): cámbialas juntas.`,
        path: ['updated'],
      },
    ),
});

export const collections = { models, gallery, sellingPoints, steps, legal };
