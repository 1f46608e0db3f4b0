import { z } from 'zod';
import raw from './site.json' with { type: 'json' };

/**
 * Every fact about the business that the pages show: marketers change
 * src/data/site.json, the build checks it against this schema.
 */
const siteSchema = z
  .object({
    brand: z.object({
      name: z.string().min(2).describe('Nombre comercial'),
      shortName: z.string().min(2),
      tagline: z.string().min(5),
    }),
    siteUrl: z.url().describe('URL pública del sitio, sin / final'),
    officialSite: z.url().describe('Enlace "sitio oficial" del pie de página'),
    phone: z.object({
      display: z.string().describe('Como se muestra: 999 555 0123'),
      e164: z.string().regex(/^\+[1-9]\d{7,14}$/),
    }),
    email: z.email(),
    privacyEmail: z.email().describe('Contacto para derechos ARCO'),
    whatsapp: z.object({
      number: z.string().regex(/^[1-9]\d{7,14}$/, 'Solo dígitos, con código de país (52...)'),
      greeting: z.string().min(5).describe('Mensaje prellenado al abrir el chat'),
    }),
    paymentLink: z.url().describe('Liga de pago con tarjeta (consultorías de $899 y $499 MXN)'),
    offices: z
      .array(
        z.object({
          city: z.string(),
          region: z.string(),
          countryCode: z.string().length(2),
          country: z.string(),
          role: z.string(),
        }),
      )
      .min(1),
    social: z.array(
      z.object({
        network: z.enum(['facebook', 'instagram', 'youtube', 'tiktok', 'linkedin']),
        label: z.string(),
        url: z.url(),
      }),
    ),
    videos: z.object({
      method: z.object({ youtubeId: z.string().regex(/^[\w-]{11}$/), durationLabel: z.string() }),
    }),
  })
  .strict();

export type SiteFacts = z.infer<typeof siteSchema>;

export const site: SiteFacts = siteSchema.parse(raw);

/** The chat link with its preset greeting. */
export const whatsappUrl = `https://wa.me/${site.whatsapp.number}?text=${encodeURIComponent(site.whatsapp.greeting)}`;

/** "$229,000 MXN" */
export function formatMxn(amount: number): string {
  return `${new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', maximumFractionDigits: 0 }).format(amount)} MXN`;
}
