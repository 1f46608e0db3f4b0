/**
 * The campaign report (issue #43, decision 0072), shared by the panel and
 * its endpoint: what is asked (months and the level of detail), what comes
 * back, and marketing's spend of a campaign. Browser-safe.
 *
 * Rows are people (contacts) by where they first came from (their first
 * touch: source, campaign, ad), among those whose first lead arrived in the
 * chosen months, with everything that became of them since: their leads, the
 * team's first answer, the visits booked and held, the consultations paid,
 * the houses sold and their value. Each figure counts what the lists show
 * for the same filter (Prospectos by source and campaign, from and to).
 */
import * as z from 'zod/mini';

export const CAMPAIGN_LEVELS = ['source', 'campaign', 'ad'] as const;
export type CampaignLevel = (typeof CAMPAIGN_LEVELS)[number];
export const CAMPAIGN_LEVEL_LABELS: Record<CampaignLevel, string> = {
  source: 'Por fuente',
  campaign: 'Por campaña',
  ad: 'Por anuncio',
};

/** "2026-11": a month of Mérida's calendar. */
const MONTH = /^(20\d\d)-(0[1-9]|1[0-2])$/;
const monthField = z.string().check(z.regex(MONTH, 'Elige un mes (AAAA-MM).'));

/** Twelve months at most in one report. */
export const MAX_REPORT_MONTHS = 12;

export const campaignQuerySchema = z
  .object({
    from: monthField,
    to: monthField,
    level: z.optional(z.enum(CAMPAIGN_LEVELS)),
  })
  .check(
    z.refine((query) => query.from <= query.to, { message: 'El mes inicial va antes del final.', path: ['to'] }),
    z.refine((query) => monthsBetween(query.from, query.to) <= MAX_REPORT_MONTHS, {
      message: `Elige ${MAX_REPORT_MONTHS} meses como máximo.`,
      path: ['to'],
    }),
  );
export type CampaignQuery = z.infer<typeof campaignQuerySchema>;

/** How many months from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): number {
  const [fromYear, fromMonth] = from.split('-').map(Number) as [number, number];
  const [toYear, toMonth] = to.split('-').map(Number) as [number, number];
  return (toYear - fromYear) * 12 + (toMonth - fromMonth) + 1;
}

/** What marketing types: a campaign's spend in one month. */
export const spendSchema = z.object({
  source: z.string().check(z.trim(), z.minLength(1, 'Escribe la fuente.'), z.maxLength(200, 'Fuente demasiado larga.')),
  campaign: z
    .string()
    .check(z.trim(), z.minLength(1, 'Escribe la campaña.'), z.maxLength(200, 'Campaña demasiado larga.')),
  month: monthField,
  amountMxn: z
    .number({ error: 'Escribe el gasto en pesos, sin centavos.' })
    .check(
      z.int('Escribe el gasto en pesos, sin centavos.'),
      z.minimum(0, 'El gasto no puede ser negativo.'),
      z.maximum(1_000_000_000, 'El gasto es demasiado alto.'),
    ),
});
export type Spend = z.infer<typeof spendSchema>;

export interface CampaignFigures {
  /** Requests (forms and calls) of these people, whenever they came. */
  leads: number;
  contacts: number;
  /** People the team answered (moved out of «Nuevo» or wrote on WhatsApp). */
  firstReplies: number;
  visitsBooked: number;
  visitsHeld: number;
  consultationsPaid: number;
  won: number;
  /** The won deals' value: its override, else its model's catalogue price. */
  wonValueMxn: number;
  /** What marketing typed for these months (campaign and source levels), or null. */
  spendMxn: number | null;
}

export interface CampaignRow extends CampaignFigures {
  /** null: no campaign (direct visits, organic search…). */
  source: string | null;
  campaign: string | null;
  ad: string | null;
}

/** The conversions not told to the ad platforms for these people, and why (issue #43, part 5). */
export interface ConversionsNotSent {
  noConsent: number;
  noClickId: number;
  failed: number;
  sent: number;
}

export interface CampaignReport {
  from: string;
  to: string;
  level: CampaignLevel;
  rows: CampaignRow[];
  totals: CampaignFigures;
  conversions: ConversionsNotSent;
}

/** A cost per result in whole pesos, or "—" with no spend or no result. */
export function costPer(spend: number | null, results: number): number | null {
  return spend === null || results === 0 ? null : Math.round(spend / results);
}

/** The report's columns as the table and the CSV name them. */
export const CAMPAIGN_COLUMNS = [
  ['leads', 'Solicitudes'],
  ['contacts', 'Personas'],
  ['firstReplies', 'Atendidas'],
  ['visitsBooked', 'Citas agendadas'],
  ['visitsHeld', 'Citas realizadas'],
  ['consultationsPaid', 'Asesorías pagadas'],
  ['won', 'Ventas'],
  ['wonValueMxn', 'Valor vendido (MXN)'],
  ['spendMxn', 'Gasto (MXN)'],
] as const satisfies readonly (readonly [keyof CampaignFigures, string])[];
