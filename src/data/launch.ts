import { z } from 'zod';
import type { BuildConfig } from '../integrations/build-config.ts';
import { formatMxn } from './catalogue.ts';
import type { LegalText } from './content-check.ts';
import { type DataProblem, formatProblem } from './problems.ts';
import type { LaunchField } from './schemas.ts';
import type { SiteFacts } from './site.ts';

/**
 * The launch check (issue #15): the facts a visitor would notice are
 * placeholders (site.json lists them in `placeholders` until someone writes
 * the real ones in), and the links the site depends on must have the form
 * their provider documents. `checkLaunch` is pure; `npm run check:launch`
 * (scripts/check-launch.ts) and the build (src/integrations/launch-check.ts)
 * run it. Decision 0020.
 */

const SITE_FILE = 'src/data/site.json';
const PRIVACY_NOTICE = 'src/content/legal/aviso-de-privacidad.md';

type FieldProblem = { field: PropertyKey[]; message: string };

interface LaunchFact {
  /** What to write in its place, in Spanish, to finish "Escribe …". */
  what: string;
  /** Problems with the form of the value, whether or not it is still marked. */
  check: (site: SiteFacts) => FieldProblem[];
}

const path = (field: string): PropertyKey[] => field.split('.');

/** Domains reserved for examples (RFC 2606) and their usual Spanish stand-in. */
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|net|org)|ejemplo\.(com|mx)|test|example|invalid|localhost)$/i;

function emailProblems(field: 'email' | 'privacyEmail', value: string): FieldProblem[] {
  if (!z.email().safeParse(value).success)
    return [{ field: [field], message: `"${value}" no es un correo electrónico válido.` }];
  if (EXAMPLE_DOMAIN.test(value.split('@')[1] ?? ''))
    return [{ field: [field], message: `"${value}" es de un dominio de ejemplo: escribe un correo real.` }];
  return [];
}

/** Text in square brackets, like "[domicilio fiscal]": a blank someone meant to fill. */
const BRACKETS = /\[[^\]\n]*\](?!\()/;

/** A profile's address on each network: host and path, with an example for the message. */
const PROFILES: Record<SiteFacts['social'][number]['network'], { host: RegExp; path: RegExp; example: string }> = {
  facebook: {
    host: /^(www\.|m\.)?facebook\.com$/,
    path: /^\/([\w.-]+|profile\.php)\/?$/,
    example: 'https://www.facebook.com/ceibacasas',
  },
  instagram: {
    host: /^(www\.)?instagram\.com$/,
    path: /^\/[\w.]+\/?$/,
    example: 'https://www.instagram.com/ceibacasas',
  },
  youtube: {
    host: /^(www\.|m\.)?youtube\.com$/,
    path: /^\/(@[\w.-]+|channel\/UC[\w-]{22}|c\/[\w.-]+|user\/[\w.-]+)\/?$/,
    example: 'https://www.youtube.com/@ceibacasas',
  },
  tiktok: { host: /^(www\.)?tiktok\.com$/, path: /^\/@[\w.]+\/?$/, example: 'https://www.tiktok.com/@ceibacasas' },
  linkedin: {
    host: /^(www\.|[a-z]{2}\.)?linkedin\.com$/,
    path: /^\/(company|in|school)\/[\w%-]+\/?$/,
    example: 'https://www.linkedin.com/company/ceibacasas',
  },
};

function profileProblems(site: SiteFacts): FieldProblem[] {
  return site.social.flatMap((profile, index) => {
    const form = PROFILES[profile.network];
    const url = URL.parse(profile.url);
    const fine = url?.protocol === 'https:' && form.host.test(url.hostname) && form.path.test(url.pathname);
    return fine
      ? []
      : [
          {
            field: ['social', index, 'url'],
            message: `"${profile.url}" no es la dirección de un perfil de ${profile.label}: debe tener la forma ${form.example}.`,
          },
        ];
  });
}

/**
 * Stripe's Payment Links live at https://buy.stripe.com/ followed by the code
 * Stripe generates, letters and digits only (e.g. …/fZu9AUb5cb646B8fgp5Ne05);
 * links made in test mode start with test_ and take no real money.
 */
const STRIPE_LINK = /^\/(test_)?[A-Za-z0-9]{14,}$/;

function paymentLinkProblems(link: string): FieldProblem[] {
  const url = URL.parse(link);
  const match = url?.protocol === 'https:' && url.hostname === 'buy.stripe.com' ? STRIPE_LINK.exec(url.pathname) : null;
  if (!match)
    return [
      {
        field: ['paymentLink'],
        message: `"${link}" no es una liga de pago de Stripe: debe ser https://buy.stripe.com/ seguida del código que da Stripe, solo letras y números (por ejemplo https://buy.stripe.com/fZu9AUb5cb646B8fgp5Ne05). Cópiala tal cual del panel de Stripe, en Payment Links.`,
      },
    ];
  if (match[1])
    return [
      {
        field: ['paymentLink'],
        message: `"${link}" es una liga del modo de prueba de Stripe (empieza con test_): no cobra de verdad. Usa la liga del modo en vivo.`,
      },
    ];
  return [];
}

/** Each fact that starts as a placeholder: what to write, and the form it must have. */
export const LAUNCH_FACTS: Record<LaunchField, LaunchFact> = {
  phone: {
    what: 'el teléfono de atención, en "display" como se lee (999 123 4567) y en "e164" con +52 y sus 10 dígitos (+529991234567)',
    check: ({ phone }) => {
      if (!/^\+52\d{10}$/.test(phone.e164))
        return [
          {
            field: ['phone', 'e164'],
            message: `"${phone.e164}" debe ser +52 seguido de los 10 dígitos del número, sin espacios (por ejemplo +529991234567).`,
          },
        ];
      const digits = phone.display.replace(/\D/g, '');
      return digits === phone.e164.slice(3) || digits === phone.e164.slice(1)
        ? []
        : [
            {
              field: ['phone', 'display'],
              message: `"${phone.display}" no es el mismo número que "phone.e164" (${phone.e164}): corrige el que esté mal.`,
            },
          ];
    },
  },
  email: {
    what: 'el correo de contacto, que se muestra en el pie de página y en los términos y condiciones',
    check: (site) => emailProblems('email', site.email),
  },
  privacyEmail: {
    what: 'el correo al que se piden los derechos ARCO, que se muestra en el aviso de privacidad',
    check: (site) => emailProblems('privacyEmail', site.privacyEmail),
  },
  'whatsapp.number': {
    what: 'el número de WhatsApp de los asesores: 52 y sus 10 dígitos, sin + ni espacios (529991234567)',
    check: ({ whatsapp: { number } }) => {
      // wa.me takes the full international number, digits only (Mexico: 52 and the 10-digit number).
      if (/^52\d{10}$/.test(number)) return [];
      const message = /^521\d{10}$/.test(number)
        ? 'sobra el 1 después del 52: WhatsApp usa 52 y los 10 dígitos del número.'
        : /^\d{10}$/.test(number)
          ? 'le falta el código de país: escribe 52 antes de los 10 dígitos.'
          : 'debe ser 52 seguido de los 10 dígitos del número, solo dígitos (por ejemplo 529991234567).';
      return [{ field: ['whatsapp', 'number'], message: `"${number}": ${message}` }];
    },
  },
  paymentLink: {
    what: 'la liga de pago de Stripe (Payment Link) de las consultas, tal como la copias del panel de Stripe',
    check: (site) => paymentLinkProblems(site.paymentLink),
  },
  social: {
    what: 'la dirección de cada perfil de la empresa en redes sociales (borra de la lista las redes en las que no tenga perfil)',
    check: profileProblems,
  },
  'videos.method.youtubeId': {
    what: 'el código del video del método de construcción en YouTube: los 11 caracteres que van después de "v=" en su dirección',
    check: ({ videos }) =>
      /^[A-Za-z0-9_-]{11}$/.test(videos.method.youtubeId)
        ? []
        : [
            {
              field: path('videos.method.youtubeId'),
              message: `"${videos.method.youtubeId}" no es un código de video de YouTube: son 11 letras, números, - o _ (en https://www.youtube.com/watch?v=dQw4w9WgXcQ es dQw4w9WgXcQ).`,
            },
          ],
  },
  'founder.name': {
    what: 'el nombre de quien firma la cita final de la página de inicio, como deba aparecer',
    check: ({ founder }) =>
      BRACKETS.test(founder.name)
        ? [{ field: path('founder.name'), message: 'tiene texto entre corchetes: escribe el nombre real.' }]
        : [],
  },
  'legal.address': {
    what: 'el domicilio fiscal completo (calle y número, colonia, código postal, ciudad y estado), que la Ley Federal de Protección de Datos Personales pide mostrar en el aviso de privacidad',
    check: ({ legal }) => [
      ...(BRACKETS.test(legal.address)
        ? [{ field: path('legal.address'), message: 'tiene texto entre corchetes: escribe el domicilio real.' }]
        : []),
      ...(/\b\d{5}\b/.test(legal.address)
        ? []
        : [
            {
              field: path('legal.address'),
              message: 'le falta el código postal de 5 dígitos (por ejemplo "C.P. 97000").',
            },
          ]),
    ],
  },
  startingPrice: {
    what: 'el precio "desde" que anuncian la portada y /modelos (startingPrice.amountMxn) y a qué se refiere (startingPrice.refersTo), tal como se vende',
    check: () => [],
  },
};

/**
 * A "desde" price lower than anything the catalogue offers promises what no
 * visitor can buy: the thing it refers to must be in the catalogue first.
 */
export function startingPriceProblems(
  site: SiteFacts,
  models: readonly { name: string; priceFromMxn: number }[],
): DataProblem[] {
  const cheapest = [...models].sort((a, b) => a.priceFromMxn - b.priceFromMxn)[0];
  if (!cheapest || site.startingPrice.amountMxn >= cheapest.priceFromMxn) return [];
  return [
    {
      file: SITE_FILE,
      field: path('startingPrice.amountMxn'),
      message: `el precio "desde" (${formatMxn(site.startingPrice.amountMxn)}, "${site.startingPrice.refersTo}") es menor que todo lo que ofrece el sitio: el modelo más barato, ${cheapest.name}, cuesta ${formatMxn(cheapest.priceFromMxn)}. Agrega al catálogo lo que cuesta ese precio, o escribe el precio del modelo más barato.`,
    },
  ];
}

/** The legal pages must show the address, and hold no "[…]" left to fill in. */
function legalProblems(legal: readonly LegalText[]): DataProblem[] {
  const problems: DataProblem[] = [];
  for (const { file, text } of legal) {
    text.split('\n').forEach((line, index) => {
      const blank = BRACKETS.exec(line);
      if (blank)
        problems.push({
          file,
          entry: `línea ${index + 1}`,
          message: `"${blank[0]}" es un texto por completar: escribe el dato real (o {domicilio} para el domicilio fiscal).`,
        });
    });
    if (file === PRIVACY_NOTICE && !text.includes('{domicilio}'))
      problems.push({
        file,
        message:
          'el aviso de privacidad debe mostrar el domicilio del responsable: escribe {domicilio} donde va (se llena con "legal.address" de src/data/site.json).',
      });
  }
  return problems;
}

/**
 * Every reason the site is not ready to launch, in Spanish: the facts still
 * marked as placeholders, the ones whose form is wrong, and the legal pages'
 * blanks. Empty when the site can go live.
 */
export function checkLaunch(
  site: SiteFacts,
  legal: readonly LegalText[],
  models: readonly { name: string; priceFromMxn: number }[] = [],
): DataProblem[] {
  const problems: DataProblem[] = [];
  for (const [field, fact] of Object.entries(LAUNCH_FACTS) as [LaunchField, LaunchFact][]) {
    if (site.placeholders.includes(field))
      problems.push({
        file: SITE_FILE,
        field: path(field),
        message: `sigue siendo un dato de ejemplo. Escribe ${fact.what}. Después quita "${field}" de la lista "placeholders" de ese archivo.`,
      });
    for (const problem of fact.check(site)) problems.push({ file: SITE_FILE, ...problem });
  }
  return [...problems, ...startingPriceProblems(site, models), ...legalProblems(legal)];
}

/** What the build does with the check's problems: fail (`strict`) or only show them (`warn`). */
export type LaunchMode = 'strict' | 'warn';

/**
 * `LAUNCH_CHECK=strict|warn` when set; otherwise strict in Netlify's production
 * context (`CONTEXT=production`) and a warning everywhere else. NODE_ENV says
 * nothing here: `astro build` sets it to production for every build, and
 * netlify.toml sets it for deploy previews too.
 */
export function launchMode(build: Pick<BuildConfig, 'context' | 'launchCheck'>): LaunchMode {
  return build.launchCheck ?? (build.context === 'production' ? 'strict' : 'warn');
}

/** The check's outcome as the terminal shows it, in Spanish. */
export function launchReport(problems: readonly DataProblem[]): string {
  if (!problems.length)
    return 'Listo para publicar: no queda ningún dato de ejemplo y las ligas tienen la forma correcta.';
  const count = problems.length === 1 ? '1 pendiente' : `${problems.length} pendientes`;
  return [
    `El sitio todavía no está listo para publicarse (${count}):`,
    ...problems.map((problem, index) => `  ${index + 1}. ${formatProblem(problem)}`),
    'Corrige cada uno en el archivo y el campo que se indican, y vuelve a correr: npm run check:launch',
  ].join('\n');
}

/**
 * The launch check as a warning (local builds, deploy previews): two lines,
 * naming the fields left, after the content errors and not in their way.
 */
export function launchSummary(problems: readonly DataProblem[]): string {
  const byFile = new Map<string, string[]>();
  for (const { file, field } of problems) {
    const names = byFile.get(file) ?? [];
    const name = field?.length ? field.filter((key) => typeof key === 'string').join('.') : 'texto';
    if (!names.includes(name)) names.push(name);
    byFile.set(file, names);
  }
  const where = [...byFile].map(([file, names]) => `${file} (${names.join(', ')})`).join('; ');
  const count = problems.length === 1 ? '1 dato pendiente' : `${problems.length} datos pendientes`;
  return [
    `Aviso de publicación: ${count} antes de publicar, en ${where}.`,
    'Detalle y qué escribir: npm run check:launch. En producción (CONTEXT=production o LAUNCH_CHECK=strict) esto detiene la compilación.',
  ].join('\n');
}
