import { z } from 'zod';
import landingJson from './landing.json';
import pagesJson from './pages.json';

/** Page copy lives in src/data/*.json; these schemas catch a typo at build time. */
const seo = z.object({ title: z.string().max(70), description: z.string().max(160) }).strict();
const card = z.object({ title: z.string(), text: z.string(), cta: z.string() }).strict();

const landingSchema = z
  .object({
    seo,
    hero: z
      .object({
        eyebrow: z.string(),
        title: z.string(),
        subtitle: z.string(),
        highlights: z.array(z.string()).length(3),
        buttons: z.object({ buy: z.string(), estimate: z.string(), advisor: z.string() }).strict(),
        imageAlt: z.string(),
      })
      .strict(),
    paths: z
      .object({
        title: z.string(),
        subtitle: z.string(),
        models: card,
        estimate: card.extend({ badge: z.string() }),
        advisor: card,
      })
      .strict(),
    sellingPoints: z.object({ title: z.string(), subtitle: z.string() }).strict(),
    method: z
      .object({
        eyebrow: z.string(),
        title: z.string(),
        paragraphs: z.array(z.string()).min(1),
        facts: z.array(z.object({ value: z.string(), label: z.string() }).strict()).length(3),
        videoTitle: z.string(),
        videoCta: z.string(),
        imageAlt: z.string(),
      })
      .strict(),
    cycle: z.object({ title: z.string(), subtitle: z.string() }).strict(),
    partners: z
      .object({
        eyebrow: z.string(),
        title: z.string(),
        paragraphs: z.array(z.string()).min(1),
        facts: z.array(z.string()).length(3),
        cta: z.string(),
        imageAlt: z.string(),
      })
      .strict(),
    quote: z.object({ text: z.string(), author: z.string(), role: z.string() }).strict(),
  })
  .strict();

const pagesSchema = z
  .object({
    modelos: z
      .object({
        seo,
        headline: z.string(),
        intro: z.string(),
        badges: z
          .array(
            z
              .object({ icon: z.enum(['wind', 'bolt', 'calendar', 'pencil']), title: z.string(), text: z.string() })
              .strict(),
          )
          .length(4),
        galleryTitle: z.string(),
        modelsTitle: z.string(),
        advisory: card,
      })
      .strict(),
    prefiltro: z.object({ seo, title: z.string(), intro: z.string() }).strict(),
    estimacion: z.object({ seo, title: z.string(), intro: z.string(), trust: z.array(z.string()).length(4) }).strict(),
    socios: z
      .object({
        seo,
        title: z.string(),
        intro: z.string(),
      })
      .strict(),
    quickQuote: z.object({ title: z.string(), description: z.string() }).strict(),
    notFound: z.object({ seo, title: z.string(), text: z.string(), home: z.string() }).strict(),
  })
  .strict();

export const landing = landingSchema.parse(landingJson);
export const pages = pagesSchema.parse(pagesJson);
