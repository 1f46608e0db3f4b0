/**
 * The pipeline ("Embudo", issue #26 item 6, decision 0041): one column per
 * state with its count and the sum of its deals' estimated values, each card
 * with its model of interest and expected close day. Shared by the panel and
 * the function; browser-safe.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { CONTACT_STATES, type ContactDeal, type ContactState, type ContactSummary } from './contacts.ts';
import { singleLineChecks } from './text.ts';

/** Cards per column on the first page and per "Cargar más". */
export const PIPELINE_PAGE = 10;

/** GET /api/admin/pipeline: whose contacts (as Prospectos' `assigned`), and one column's next page. */
export const pipelineQuerySchema = z.object({
  /** `me` ("Mis prospectos"), `none` (sin asignar) or a member's id; absent: everyone's, as in Prospectos. */
  assigned: z.optional(z.union([z.enum(['me', 'none']), z.uuid()], { error: 'Asignación desconocida.' })),
  state: z.optional(z.enum(CONTACT_STATES, { error: 'Estado desconocido.' })),
  /** The first touch's source and campaign (issue #43), as Prospectos filters them. */
  source: z.optional(z.string().check(...singleLineChecks, z.trim(), z.maxLength(200, 'Fuente demasiado larga.'))),
  campaign: z.optional(z.string().check(...singleLineChecks, z.trim(), z.maxLength(200, 'Campaña demasiado larga.'))),
  cursor: z.optional(z.string({ error: 'Parámetros de paginación no válidos.' }).check(z.maxLength(200))),
});
export type PipelineQuery = z.output<typeof pipelineQuerySchema>;

/**
 * A card: the contact as the list has it (without its number of requests,
 * which the card does not show), its deal, the model's name and the value
 * counted in the column.
 */
export interface PipelineCard extends Omit<ContactSummary, 'requests'>, ContactDeal {
  /** The model's name, null without one (or one the catalogue no longer has). */
  modelName: string | null;
  /** What the column sums for it: the override, else the model's price; null when neither. */
  value: number | null;
  /** What the contact has actually paid online (consultations, issue #41), in pesos; 0 when nothing. */
  paid: number;
}

export interface PipelineColumnPage {
  items: PipelineCard[];
  nextCursor: string | null;
}

export interface PipelineColumn extends PipelineColumnPage {
  state: ContactState;
  /** Every contact of the column (not only the page's). */
  total: number;
  /** The sum of the column's values, in pesos, and how many of its contacts have one. */
  value: number;
  valued: number;
}

/** GET /api/admin/pipeline: the seven columns, in the states' order. */
export interface PipelineBoard {
  columns: PipelineColumn[];
}
