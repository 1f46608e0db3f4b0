import type { z } from 'zod';
import { formatMxn } from '../lib/money.ts';
import type { DataProblem } from './problems.ts';
import type { modelSchema, siteSchema } from './schemas.ts';

/**
 * The numbers the texts state about the catalogue (issue #28): how many
 * models, the lowest price, the size range, the delivery times and the
 * "desde" claim. A text writes a token (`{modelos}`, `{precioMinimo}`…) and
 * the build puts the number the data gives; the content check refuses a
 * literal ("Cinco modelos", "desde $229,000", "de 12 a 57.5 m²", "4 a 6
 * semanas") that the data contradicts, so no page can say what the catalogue
 * does not. Pure: the pages, the content check and the editor use it.
 */

type Model = z.output<typeof modelSchema>;
type StartingPrice = z.output<typeof siteSchema>['startingPrice'];

/** Every token a page text may use, with what it says in the guide and the editor. */
export const CATALOGUE_TOKENS = {
  modelos: 'cuántos modelos hay, en letra ("cinco")',
  precioMinimo: 'el precio del modelo más barato ("$229,000 MXN")',
  m2Minimo: 'la superficie del modelo más chico, en m² ("12")',
  m2Maximo: 'la superficie del modelo más grande, en m² ("57.5")',
  entregaMasCorta: 'el plazo de entrega más corto ("4 a 6 semanas")',
  entregas: 'todos los plazos de entrega, con los modelos de cada uno',
  precioDesde: 'el precio "desde" de site.json ("$60,000 MXN")',
  desdeIncluye: 'a qué se refiere el precio "desde" (site.json)',
} as const;
export type CatalogueToken = keyof typeof CATALOGUE_TOKENS;

const WORDS = ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez'];
const numberWord = (count: number) => WORDS[count] ?? String(count);

export { formatMxn };

/** 12.04 -> "12", 57.5 -> "57.5": one decimal at most, as the texts write sizes. */
const formatM2 = (size: number) => String(Math.round(size * 10) / 10);

/** A model's delivery ("4-6 semanas"), to compare and to write ("4 a 6 semanas"). */
export interface Delivery {
  min: number;
  max: number;
  unit: 'semanas' | 'meses';
}
export const DELIVERY_FORMAT = /^(\d+)-(\d+) (semanas|meses)$/;
export function parseDelivery(text: string): Delivery | undefined {
  const match = DELIVERY_FORMAT.exec(text);
  return match ? { min: Number(match[1]), max: Number(match[2]), unit: match[3] as Delivery['unit'] } : undefined;
}
const deliveryText = (delivery: Delivery) => `${delivery.min} a ${delivery.max} ${delivery.unit}`;
const deliveryDays = (delivery: Delivery) => delivery.min * (delivery.unit === 'semanas' ? 7 : 30);

/** "A y B", "A, B y C" */
const listOf = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} y ${names.at(-1)}`;

/** What each token says for these models and this "desde" fact. */
export function catalogueValues(
  models: readonly Model[],
  startingPrice: StartingPrice,
): Record<CatalogueToken, string> {
  const cheapest = Math.min(...models.map((model) => model.priceFromMxn));
  const sizes = models.map((model) => model.sizeM2);
  // Deliveries from the shortest; the most common one goes first without names.
  const groups = new Map<string, { delivery: Delivery; names: string[] }>();
  for (const model of [...models].sort((a, b) => a.order - b.order)) {
    const delivery = parseDelivery(model.delivery);
    if (!delivery) continue;
    const key = deliveryText(delivery);
    const group = groups.get(key) ?? { delivery, names: [] };
    group.names.push(model.name);
    groups.set(key, group);
  }
  const byLength = [...groups.values()].sort((a, b) => deliveryDays(a.delivery) - deliveryDays(b.delivery));
  const [main, ...others] = [...byLength].sort((a, b) => b.names.length - a.names.length);
  const rest = byLength.filter((group) => group !== main && others.includes(group));
  const entregas = main
    ? [
        `de ${deliveryText(main.delivery)}`,
        ...rest.map((group) => `de ${deliveryText(group.delivery)} para ${listOf(group.names)}`),
      ]
    : [];
  return {
    modelos: numberWord(models.length),
    precioMinimo: formatMxn(cheapest),
    m2Minimo: formatM2(Math.min(...sizes)),
    m2Maximo: formatM2(Math.max(...sizes)),
    entregaMasCorta: byLength[0] ? deliveryText(byLength[0].delivery) : '',
    entregas: entregas.length <= 1 ? (entregas[0] ?? '') : `${entregas.slice(0, -1).join(', ')} y ${entregas.at(-1)}`,
    precioDesde: formatMxn(startingPrice.amountMxn),
    desdeIncluye: startingPrice.refersTo,
  };
}

const TOKEN = /\{([^{}\n]*)\}/g;

/** The token `{Modelos}` is `{modelos}` with a capital, for the start of a sentence. */
function tokenValue(name: string, values: Record<CatalogueToken, string>): string | undefined {
  if (name in values) return values[name as CatalogueToken];
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  const value = lower !== name && lower in values ? values[lower as CatalogueToken] : undefined;
  return value === undefined ? undefined : value.charAt(0).toUpperCase() + value.slice(1);
}

/** `text` with each catalogue token replaced; other `{…}` are left (the check refuses them). */
export function fillCatalogueTokens(text: string, values: Record<CatalogueToken, string>): string {
  return text.replace(TOKEN, (whole, name: string) => tokenValue(name, values) ?? whole);
}

/** Every string of a parsed data file with its path, for the checks. */
export function textsOf(value: unknown, path: PropertyKey[] = []): { path: PropertyKey[]; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => textsOf(item, [...path, index]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => textsOf(item, [...path, key]));
  return [];
}

/** A deep copy of `value` with the tokens of every string filled in. */
export function fillDeep<T>(value: T, values: Record<CatalogueToken, string>): T {
  if (typeof value === 'string') return fillCatalogueTokens(value, values) as T;
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, values)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillDeep(item, values)])) as T;
  return value;
}

const NUMBER_WORDS = new Map(WORDS.map((word, index) => [word, index]));
const amount = (digits: string) => Number(digits.replace(/[,\s]/g, ''));

/** One text of a data file to check, and where it is. */
export interface PlacedText {
  file: string;
  entry?: string;
  field?: PropertyKey[];
  text: string;
  /** A text inside one model's own entry: its sizes and delivery are that model's. */
  model?: Model;
  /** The tokens this text may use (legal pages have their own). */
  tokens?: readonly string[];
}

/**
 * The literals of `texts` that the models (and the "desde" fact) contradict,
 * and the tokens no page knows. Each problem says what the data says and
 * which token to write instead.
 */
export function contradictionProblems(
  texts: readonly PlacedText[],
  models: readonly Model[],
  startingPrice: StartingPrice,
): DataProblem[] {
  if (!models.length) return [];
  const values = catalogueValues(models, startingPrice);
  const cheapest = [...models].sort((a, b) => a.priceFromMxn - b.priceFromMxn)[0] as Model;
  const deliveries = new Map(models.map((model) => [model.delivery, model]));
  const problems: DataProblem[] = [];
  for (const placed of texts) {
    const { text, model } = placed;
    const problem = (message: string) =>
      problems.push({
        file: placed.file,
        ...(placed.entry ? { entry: placed.entry } : {}),
        ...(placed.field ? { field: placed.field } : {}),
        message,
      });
    const known = placed.tokens ?? Object.keys(CATALOGUE_TOKENS);
    // `{Modelos}` is `{modelos}` with a capital.
    const isKnown = (name: string) =>
      known.includes(name) || known.includes(name.charAt(0).toLowerCase() + name.slice(1));
    for (const match of text.matchAll(TOKEN))
      if (!isKnown(match[1] as string))
        problem(
          `${match[0]} no es un dato que la página sepa poner: usa ${known.map((token) => `{${token}}`).join(', ')}, o escribe el texto tal cual.`,
        );

    for (const match of text.matchAll(/\b(\d+|[a-záéíóú]+)\s+modelos\b/gi)) {
      const said = match[1] as string;
      const count = /^\d+$/.test(said) ? Number(said) : NUMBER_WORDS.get(said.toLowerCase());
      if (count !== undefined && count !== models.length)
        problem(
          `dice "${match[0]}", pero el catálogo tiene ${models.length} modelos: escribe {modelos} modelos y el número seguirá al catálogo.`,
        );
    }

    // A "desde" price is a fact of the data, never a number typed into a text.
    for (const match of text.matchAll(/desde\s+\$\s?(\d[\d,]*)(\s*MXN)?/gi)) {
      const price = amount(match[1] as string);
      if (price === cheapest.priceFromMxn)
        problem(
          `dice "${match[0]}": escribe {precioMinimo}, que sigue al precio del modelo más barato (${cheapest.name}).`,
        );
      else if (price === startingPrice.amountMxn)
        problem(
          `dice "${match[0]}": escribe {precioDesde} ({desdeIncluye}), que toma el precio y a qué se refiere de site.json (startingPrice).`,
        );
      else
        problem(
          `dice "${match[0]}", pero el modelo más barato (${cheapest.name}) cuesta ${values.precioMinimo} y el precio "desde" de site.json es ${values.precioDesde}: escribe {precioMinimo} o {precioDesde} ({desdeIncluye}).`,
        );
    }
    if (text.includes('{precioDesde}') && !text.includes('{desdeIncluye}'))
      problem(
        'usa {precioDesde} sin decir a qué se refiere: escribe también {desdeIncluye} en el mismo texto, por ejemplo "desde {precioDesde} ({desdeIncluye})".',
      );

    for (const match of text.matchAll(/(\d+(?:\.\d+)?)\s*m(?:²|2)(?![\p{L}\d])/gu)) {
      // "de 12 a 57.5 m²": a range of the catalogue; "22.21 m²" inside a model: its own size.
      const range = /de\s+(\d+(?:\.\d+)?)\s+a\s+$/.exec(text.slice(0, match.index));
      if (range) {
        if (formatM2(Number(range[1])) !== values.m2Minimo || formatM2(Number(match[1])) !== values.m2Maximo)
          problem(
            `dice "de ${range[1]} a ${match[0]}", pero los modelos van de ${values.m2Minimo} a ${values.m2Maximo} m²: escribe de {m2Minimo} a {m2Maximo} m².`,
          );
      } else if (model && Math.abs(Number(match[1]) - model.sizeM2) >= 0.05)
        problem(`dice "${match[0]}", pero la superficie de este modelo (sizeM2) es ${model.sizeM2} m².`);
    }

    // A text that states delivery times states every one the catalogue has.
    const said = [...text.matchAll(/(\d+)\s*(?:a|-)\s*(\d+)\s+(semanas|meses)/g)];
    if (model) {
      for (const match of said)
        if (`${match[1]}-${match[2]} ${match[3]}` !== model.delivery)
          problem(`dice "${match[0]}", pero el tiempo de entrega de este modelo (delivery) es "${model.delivery}".`);
    } else if (said.length) {
      const times = new Set(said.map((match) => `${match[1]}-${match[2]} ${match[3]}`));
      const unknown = said.filter((match) => !deliveries.has(`${match[1]}-${match[2]} ${match[3]}`));
      const left = models.filter((other) => !times.has(other.delivery));
      if (unknown.length || left.length)
        problem(
          `dice "${(unknown[0] ?? (said[0] as RegExpMatchArray))[0]}", pero ${(unknown.length ? models : left)
            .map((other) => `${other.name} se entrega en ${deliveryText(parseDelivery(other.delivery) as Delivery)}`)
            .join(
              ', ',
            )}: escribe {entregaMasCorta} (el plazo más corto) o {entregas} (todos los plazos, con sus modelos).`,
        );
    }
  }
  return problems;
}
