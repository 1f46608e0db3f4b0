import { z } from 'zod';
import { PRIVACY_NOTICE_VERSION } from './legal.ts';

/**
 * The shape of every data file in src/data/. One schema per file (or per
 * entry of a list file), used by the build's content check
 * (src/data/content-check.ts), by site.ts and copy.ts, and by the content
 * collections (src/content.config.ts adds Astro's image() to them).
 *
 * Descriptions are in Spanish: the content check shows them to whoever
 * edits the file. Refinements over a whole list (a repeated id, the 17
 * gallery images) live in the content check, not here, so that the content
 * collections can extend these schemas.
 */

/**
 * The facts that are placeholders until someone puts the business's real data
 * in: their paths in site.json. While a path is listed in site.json's
 * `placeholders`, `npm run check:launch` reports it (src/data/launch.ts says
 * what to write for each); decision 0020.
 */
export const LAUNCH_FIELDS = [
  'phone',
  'email',
  'privacyEmail',
  'whatsapp.number',
  'paymentLink',
  'social',
  'videos.method.youtubeId',
  'founder.name',
  'legal.address',
  'startingPrice',
] as const;
export type LaunchField = (typeof LAUNCH_FIELDS)[number];

const text = () => z.string().trim().min(1);

export const siteSchema = z
  .object({
    brand: z.object({
      name: z.string().min(2).describe('Nombre comercial'),
      shortName: z.string().min(2).describe('Nombre corto'),
      tagline: z.string().min(5).describe('Lema del pie de página'),
    }),
    siteUrl: z.url().describe('URL pública del sitio, sin / final'),
    officialSite: z.url().describe('Enlace "Sitio oficial" del pie de página'),
    phone: z.object({
      display: text().describe('Teléfono como se muestra, por ejemplo "999 123 4567"'),
      e164: z
        .string()
        .regex(/^\+[1-9]\d{7,14}$/, 'debe empezar con + y el código de país, sin espacios: por ejemplo +529991234567')
        .describe('Teléfono en formato internacional, por ejemplo "+529991234567"'),
    }),
    email: z.email().describe('Correo de contacto'),
    privacyEmail: z.email().describe('Correo para derechos ARCO'),
    whatsapp: z.object({
      number: z
        .string()
        .regex(/^[1-9]\d{7,14}$/, 'solo dígitos, con el código de país y sin +, por ejemplo 529991234567')
        .describe('Número de WhatsApp, por ejemplo "529991234567"'),
      greeting: z.string().min(5).describe('Mensaje prellenado al abrir el chat'),
    }),
    paymentLink: z.url().describe('Liga de pago con tarjeta (consultorías de $899 y $499 MXN)'),
    offices: z
      .array(
        z.object({
          city: text().describe('Ciudad'),
          region: text().describe('Estado o región'),
          countryCode: z.string().length(2).describe('Código de país de 2 letras, por ejemplo "MX"'),
          country: text().describe('País'),
          role: text().describe('Qué se hace en esa oficina'),
        }),
      )
      .min(1),
    social: z.array(
      z.object({
        network: z.enum(['facebook', 'instagram', 'youtube', 'tiktok', 'linkedin']).describe('Red social'),
        label: text().describe('Nombre de la red, como se anuncia a los lectores de pantalla'),
        url: z.url().describe('Dirección del perfil'),
      }),
    ),
    videos: z.object({
      method: z.object({
        youtubeId: z
          .string()
          .regex(
            /^[\w-]{11}$/,
            'debe ser el código de 11 caracteres del video: en https://www.youtube.com/watch?v=dQw4w9WgXcQ es dQw4w9WgXcQ',
          )
          .describe('Código del video de YouTube'),
        durationLabel: text().describe('Duración que se anuncia, por ejemplo "2 min"'),
      }),
    }),
    founder: z.object({ name: text().describe('Nombre de quien firma la cita final de la página de inicio') }),
    startingPrice: z
      .object({
        amountMxn: z
          .number()
          .int()
          .positive()
          .describe('Precio "desde" que anuncian la portada y /modelos, en pesos, por ejemplo 60000'),
        refersTo: text()
          .max(60)
          .describe('A qué se refiere ese precio; se muestra junto a él, por ejemplo "módulo básico, sin acabados"'),
      })
      .strict()
      .describe('Precio "desde"'),
    legal: z.object({
      address: text().describe('Domicilio fiscal completo, con código postal, ciudad y estado'),
    }),
    placeholders: z
      .array(z.enum(LAUNCH_FIELDS))
      .describe('Datos que siguen siendo de ejemplo: quita cada uno de la lista cuando pongas el dato real'),
  })
  .strict();

const seo = z
  .object({
    title: z.string().max(70).describe('Título de la pestaña y de Google'),
    description: z.string().max(160).describe('Descripción para Google'),
  })
  .strict();
const card = z.object({ title: z.string(), text: z.string(), cta: z.string() }).strict();

export const landingSchema = z
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
        advisor: card.extend({ visitCta: z.string().describe('Texto del botón que abre la agenda de visitas') }),
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
    // The author's name is site.json's founder.name (a launch fact).
    quote: z.object({ text: z.string(), role: z.string().describe('Cargo de quien firma la cita') }).strict(),
  })
  .strict();

export const pagesSchema = z
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
        visit: card,
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
    agenda: z.object({ title: z.string(), description: z.string() }).strict(),
    cita: z.object({ seo, title: z.string(), intro: z.string() }).strict(),
    pagar: z.object({ seo, title: z.string(), intro: z.string() }).strict(),
    notFound: z.object({ seo, title: z.string(), text: z.string(), home: z.string() }).strict(),
    notSent: z
      .object({ seo, title: z.string(), text: z.string(), back: z.string(), whatsapp: z.string(), home: z.string() })
      .strict(),
  })
  .strict();

const slug = () =>
  z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'solo minúsculas sin acentos, números y guiones, por ejemplo "casa-ceiba"')
    .describe('Identificador, en minúsculas y con guiones');
const order = () =>
  z.number().int().positive().describe('Posición en la página; el número más bajo se muestra primero');
/** The image files the site takes (and the only files the editor's local proxy writes beside the data). */
export const IMAGE_FILE = /\.(svg|png|jpe?g|webp|avif)$/i;
/** An image file, relative to src/data/ (the content check makes sure it exists). */
const imagePath = () =>
  z
    .string()
    .regex(
      IMAGE_FILE,
      'debe ser la ruta de un archivo .svg, .png, .jpg, .webp o .avif, por ejemplo "../assets/models/lumo.svg"',
    )
    .describe('Ruta de la imagen desde src/data/, por ejemplo "../assets/models/lumo.svg"');

/** One of the models of /modelos (src/data/models.json). */
export const modelSchema = z
  .object({
    id: slug(),
    order: order(),
    name: text().describe('Nombre del modelo'),
    sizeM2: z.number().positive().describe('Superficie en m², por ejemplo 17.2'),
    priceFromMxn: z.number().int().positive().describe('Precio "desde", en pesos, por ejemplo 229000'),
    capacity: z.number().int().positive().describe('Personas, por ejemplo 2'),
    // Optional for a model added before it existed (issue #42): one level unless said.
    levels: z.number().int().min(1).max(3).default(1).describe('Niveles (plantas), por ejemplo 1'),
    delivery: z
      .string()
      .regex(
        /^\d+-\d+ (semanas|meses)$/,
        'escribe el plazo con dos números y la unidad, como "4-6 semanas" o "2-4 meses".',
      )
      .describe('Tiempo de entrega, por ejemplo "4-6 semanas"'),
    description: text().max(220).describe('Descripción de la tarjeta'),
    features: z.array(text().max(70)).min(3).max(6).describe('Características (de 3 a 6)'),
    image: imagePath(),
    imageAlt: text().max(140).describe('Texto alternativo de la imagen'),
  })
  .strict();

/** The heaviest image a data file may point at (the editor refuses a heavier upload too). */
export const MAX_IMAGE_BYTES = 1_500_000;

/** How many images the /modelos carousel shows (docs/product.md §3: 17, the first three interiors). */
export const GALLERY_SIZE = 17;

/** One image of the /modelos carousel (src/data/gallery.json). */
export const galleryImageSchema = z
  .object({
    id: z.string().min(1).describe('Identificador, por ejemplo "04"'),
    order: order(),
    kind: z.enum(['interior', 'exterior']).describe('Interior o exterior'),
    image: imagePath(),
    alt: text().max(140).describe('Texto alternativo de la imagen'),
  })
  .strict();

const ICONS = ['clock', 'shield', 'leaf', 'sparkles', 'home', 'badge'] as const;

/** One of the selling points of the landing page (src/data/selling-points.json). */
export const sellingPointSchema = z
  .object({
    id: slug(),
    order: order(),
    icon: z.enum(ICONS).describe('Ícono'),
    title: text().max(50).describe('Título'),
    text: text().max(180).describe('Texto'),
  })
  .strict();

/** One of the five steps of the purchase cycle (src/data/steps.json). */
export const stepSchema = z
  .object({
    id: slug(),
    order: z.number().int().min(1).max(5).describe('Número del paso, de 1 a 5'),
    title: text().max(50).describe('Título'),
    text: text().max(220).describe('Texto'),
    payment: z.string().nullable().describe('Pago de ese paso, o null si no hay'),
  })
  .strict();

/** The privacy notice: its `updated` date is the version every lead records (src/data/legal.ts). */
export const PRIVACY_NOTICE_TITLE = 'Aviso de privacidad';

/**
 * The front matter of a legal page (src/content/legal/*.md): the content
 * collection checks it at build time (src/content.config.ts) and the editor
 * derives its form from it and runs it before saving (decision 0038).
 */
export const legalPageSchema = z
  .object({
    title: text().describe('Título'),
    description: z.string().max(160).describe('Descripción para Google'),
    updated: z.coerce
      .date({ error: 'escribe la fecha como 2026-11-24 (año-mes-día).' })
      .describe(
        `Fecha de la última actualización; la del aviso de privacidad es la versión que guarda cada solicitud (hoy ${PRIVACY_NOTICE_VERSION}): si cambia, pídeselo a desarrollo`,
      ),
  })
  .strict()
  // Leads record the privacy notice's version (issue #14): the notice and src/data/legal.ts move together.
  .refine(
    (notice) =>
      notice.title !== PRIVACY_NOTICE_TITLE ||
      (!Number.isNaN(notice.updated.getTime()) && notice.updated.toISOString().slice(0, 10) === PRIVACY_NOTICE_VERSION),
    {
      message: `la fecha del aviso de privacidad debe ser ${PRIVACY_NOTICE_VERSION}, la versión que guarda cada solicitud (PRIVACY_NOTICE_VERSION en src/data/legal.ts): cambiar el aviso es cosa de desarrollo, que cambia las dos juntas.`,
      path: ['updated'],
    },
  );

/** The days of the week as the appointments' data writes them (src/data/appointments.json), Monday first. */
export const WEEKDAYS = ['lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'domingo'] as const;

const clock = (what: string) =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'escribe la hora con 24 horas y dos dígitos, por ejemplo "09:00" o "18:30"')
    .describe(`${what}, por ejemplo "09:00"`);

/** Whether the platform knows `zone` as an IANA time zone ("America/Merida"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/');
  } catch {
    return false;
  }
}

/** One opening of a place on a day of the week, in the place's own clock. */
export const openingSchema = z
  .object({
    day: z.enum(WEEKDAYS).describe('Día de la semana'),
    opens: clock('Abre a las'),
    closes: clock('Cierra a las'),
  })
  .strict()
  .refine((opening) => opening.opens < opening.closes, {
    message: 'la hora de cierre debe ser después de la de apertura (el mismo día).',
    path: ['closes'],
  });

/** Where an appointment happens (src/data/appointments.json): a place with its clock, hours and holidays. */
export const appointmentPlaceSchema = z
  .object({
    id: slug(),
    name: text().max(60).describe('Nombre del lugar, por ejemplo "Casa muestra Mérida"'),
    address: text()
      .max(200)
      .describe('Dirección o cómo se llega; en una videollamada, "Enlace por WhatsApp antes de la cita"'),
    timeZone: z
      .string()
      .refine(isTimeZone, 'escribe una zona horaria como "America/Merida", "America/Mexico_City" o "Europe/Berlin".')
      .describe('Zona horaria del lugar, por ejemplo "America/Merida"'),
    hours: z.array(openingSchema).min(1).describe('Horario de atención de cada semana'),
    holidays: z
      .array(
        z
          .string()
          .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'escribe la fecha como 2027-01-01 (año-mes-día).')
          .describe('Día cerrado, por ejemplo "2027-01-01"'),
      )
      .describe('Días festivos o cerrados: ese día no se agenda nada'),
  })
  .strict();

/** One kind of appointment (src/data/appointments.json): a visit or a consultation, free or paid. */
export const appointmentKindSchema = z
  .object({
    id: slug(),
    name: text().max(60).describe('Nombre, por ejemplo "Visita a la casa muestra"'),
    description: text().max(220).describe('Descripción breve que ve el comprador'),
    durationMinutes: z.number().int().min(10).max(480).describe('Duración en minutos, por ejemplo 60'),
    bufferBeforeMinutes: z
      .number()
      .int()
      .min(0)
      .max(240)
      .describe('Minutos libres antes, para preparar o trasladarse, por ejemplo 15'),
    bufferAfterMinutes: z.number().int().min(0).max(240).describe('Minutos libres después, por ejemplo 15'),
    minimumNoticeHours: z.number().int().min(0).max(720).describe('Anticipación mínima en horas, por ejemplo 12'),
    horizonDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .describe('Hasta cuántos días adelante se puede agendar, por ejemplo 30'),
    places: z.array(slug()).min(1).describe('Lugares donde se da (sus identificadores)'),
    priceMxn: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe('Precio en pesos, por ejemplo 499; vacío si es gratis (una cita con precio queda "por pagar")'),
    holdMinutes: z
      .number()
      .int()
      .min(5)
      .max(2880)
      .describe('Minutos que se aparta el horario de una cita por pagar, por ejemplo 120'),
    cutoffHours: z
      .number()
      .int()
      .min(0)
      .max(168)
      .describe('Horas antes de la cita en que ya no se puede cambiar ni cancelar, por ejemplo 2'),
    refundUntilHours: z
      .number()
      .int()
      .min(0)
      .max(720)
      .nullable()
      .describe(
        'Si el comprador cancela una cita pagada hasta estas horas antes, se le devuelve el pago, por ejemplo 24; vacío si no se devuelve',
      ),
    audience: z
      .enum(['compradores', 'socios'])
      .describe('Para quién es: "compradores" (quien compra una casa) o "socios" (quien evalúa asociarse)'),
  })
  .strict();

/** The kinds of appointment and the places they happen in (src/data/appointments.json). */
export const appointmentsSchema = z
  .object({
    kinds: z.array(appointmentKindSchema).min(1).describe('Tipos de cita'),
    places: z.array(appointmentPlaceSchema).min(1).describe('Lugares'),
    payments: z
      .object({
        cashDays: z
          .number()
          .int()
          .min(1)
          .max(7)
          .describe('Días para pagar en OXXO o por transferencia (SPEI), por ejemplo 1'),
        cashMinimumHours: z
          .number()
          .int()
          .min(24)
          .max(720)
          .describe(
            'OXXO y transferencia se ofrecen solo si la cita es dentro de al menos estas horas, por ejemplo 72; si no, solo tarjeta',
          ),
      })
      .strict()
      .describe('Pagos en línea de las citas con precio'),
  })
  .strict();

/**
 * What the editor calls a field whose schema has no description of its own
 * (the page copy's many titles and texts), by its key. The described
 * fields use their description: label before ", por ejemplo", hint after.
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  seo: 'Buscadores (Google)',
  brand: 'Marca',
  phone: 'Teléfono',
  whatsapp: 'WhatsApp',
  offices: 'Oficinas',
  social: 'Redes sociales',
  videos: 'Videos',
  founder: 'Quien firma la cita final',
  legal: 'Datos legales',
  description: 'Descripción',
  hero: 'Portada',
  paths: 'Tres caminos',
  models: 'Modelos',
  estimate: 'Estimación',
  advisor: 'Asesor',
  sellingPoints: 'Puntos de venta',
  method: 'Método de construcción',
  cycle: 'Ciclo de compra',
  partners: 'Socios',
  quote: 'Cita final',
  modelos: 'Página /modelos',
  prefiltro: 'Página /prefiltro',
  estimacion: 'Página /estimacion',
  socios: 'Página /prefiltro-socios',
  quickQuote: 'Estimación rápida (ventana)',
  agenda: 'Agendar una cita (ventana)',
  cita: 'Página /cita (la cita de cada persona, desde su enlace)',
  pagar: 'Página /pagar (el pago de una cita, desde su enlace)',
  visit: 'Visita a la casa muestra',
  visitCta: 'Botón "agendar visita"',
  notFound: 'Página no encontrada (404)',
  notSent: 'Solicitud no enviada (un formulario enviado antes de que la página cargara)',
  back: 'Cómo regresar',
  eyebrow: 'Antetítulo',
  title: 'Título',
  subtitle: 'Subtítulo',
  headline: 'Titular',
  intro: 'Introducción',
  text: 'Texto',
  cta: 'Texto del botón',
  badge: 'Etiqueta',
  badges: 'Ventajas',
  icon: 'Ícono',
  highlights: 'Frases destacadas',
  buttons: 'Botones',
  buy: 'Botón "comprar"',
  advisory: 'Asesoría',
  imageAlt: 'Texto alternativo de la imagen',
  paragraphs: 'Párrafos',
  facts: 'Datos',
  value: 'Valor',
  label: 'Leyenda',
  videoTitle: 'Título del video',
  videoCta: 'Texto del botón del video',
  role: 'Cargo',
  galleryTitle: 'Título de la galería',
  modelsTitle: 'Título de los modelos',
  trust: 'Frases de confianza',
  home: 'Texto del enlace a la portada',
  images: 'Imágenes',
  points: 'Puntos de venta',
  steps: 'Pasos',
};

/**
 * The voice agent's words and manner (src/data/voice-agent.json, issue #42):
 * what marketing writes. The facts it speaks of (models, prices, delivery,
 * guarantee, offices, kinds of appointment) are not here: the assistant's
 * definition (src/server/voice/assistant.ts) takes them from the catalogue and
 * the site's data, so the agent never says what the pages do not.
 */
export const voiceAgentSchema = z
  .object({
    name: text().max(40).describe('Nombre del asistente en la plataforma de voz, por ejemplo "Ceiba - agente de voz"'),
    firstMessage: text().max(300).describe('Lo primero que dice el agente al contestar'),
    endCallMessage: text().max(200).describe('Lo que dice al despedirse'),
    manner: z
      .array(text().max(400))
      .min(1)
      .max(12)
      .describe('Cómo habla y qué hace el agente: una indicación por renglón'),
    voice: z
      .object({
        provider: z.enum(['azure', '11labs', 'openai', 'cartesia', 'vapi']).describe('Proveedor de la voz'),
        voiceId: text().max(80).describe('Voz, por ejemplo "es-MX-DaliaNeural"'),
      })
      .strict()
      .describe('Voz del agente'),
    maxDurationMinutes: z.number().int().min(1).max(60).describe('Duración máxima de una llamada, en minutos'),
  })
  .strict();
