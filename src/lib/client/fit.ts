/**
 * The catalogue answers the visitor (issue #14): the answers they gave on
 * /estimacion and /prefiltro stay in their browser (estimateData,
 * preFilterData); /modelos reads them there, nothing is sent, and marks the
 * models that fit. Pure functions; the page script does the DOM.
 */
import type { BUDGET_UNKNOWN, BUDGETS } from '../forms/options.ts';

export interface ModelFacts {
  priceFromMxn: number;
  sizeM2: number;
  capacity: number;
}

export interface Answers {
  name?: string;
  budget?: string;
  terrain_size?: string;
  land_option?: string;
}

/** The most each budget answer can spend, in pesos. */
const BUDGET_CEILING: Record<Exclude<(typeof BUDGETS)[number], typeof BUDGET_UNKNOWN>, number> = {
  '300k-500k': 500_000,
  '500k-800k': 800_000,
  '800k-1.2M': 1_200_000,
  '1.2M+': Number.POSITIVE_INFINITY,
};

const KEYS = ['preFilterData', 'estimateData'] as const;

/** Both forms' answers, the estimate's over the pre-filter's; null when the visitor gave none. */
export function readAnswers(storage: Pick<Storage, 'getItem'>): Answers | null {
  let answers: Answers | null = null;
  for (const key of KEYS) {
    try {
      const stored = JSON.parse(storage.getItem(key) ?? 'null') as unknown;
      if (stored && typeof stored === 'object') answers = { ...(answers ?? {}), ...(stored as Answers) };
    } catch {
      // Not ours or broken: ignored.
    }
  }
  return answers && typeof answers.name === 'string' ? answers : null;
}

export function forgetAnswers(storage: Pick<Storage, 'removeItem'>): void {
  for (const key of KEYS) storage.removeItem(key);
}

/** What a model has going for this visitor: its labels; empty when it does not fit what they said. */
export function fitLabels(model: ModelFacts, answers: Answers): string[] {
  const ceiling = BUDGET_CEILING[answers.budget as keyof typeof BUDGET_CEILING];
  const land = Number(answers.terrain_size);
  const budgetFits = ceiling === undefined ? null : model.priceFromMxn <= ceiling;
  const landFits = answers.terrain_size && land > 0 ? model.sizeM2 <= land : null;
  if (budgetFits === false || landFits === false || (budgetFits === null && landFits === null)) return [];
  return [
    ...(budgetFits ? ['Dentro de tu presupuesto'] : []),
    ...(landFits ? ['Cabe en tu terreno'] : []),
    `Para ${model.capacity} personas`,
  ];
}

/** The greeting above the models, by first name. */
export function greeting(answers: Answers, fitting: number): string {
  const first = (answers.name ?? '').trim().split(/\s+/)[0] ?? '';
  if (fitting > 0) {
    return `Hola, ${first}: marcamos ${fitting === 1 ? 'el modelo que encaja' : `los ${fitting} modelos que encajan`} con tu presupuesto y tu terreno. Un asesor te enviará la cotización a tu medida.`;
  }
  return answers.budget || answers.terrain_size
    ? `Hola, ${first}: ningún modelo base encaja del todo con lo que nos contaste; un asesor te propondrá opciones a tu medida.`
    : `Hola, ${first}: gracias por tus respuestas. Un asesor te contactará con opciones para tu proyecto.`;
}
