/**
 * The catalogue's models as the panel's pipeline needs them (issue #26,
 * decision 0041): id, name and the price "desde" of src/data/models.json, the
 * one place prices are written. A deal's estimated value is its model's price
 * unless the adviser overrides it. Browser-safe; the server sums with it too.
 */
import modelsFile from '../../data/models.json' with { type: 'json' };
import { formatPesos } from '../money.ts';

export interface CatalogueModel {
  id: string;
  name: string;
  /** The catalogue's price "desde", in pesos. */
  price: number;
}

export const CATALOGUE_MODELS: readonly CatalogueModel[] = [...modelsFile.models]
  .sort((a, b) => a.order - b.order)
  .map((model) => ({ id: model.id, name: model.name, price: model.priceFromMxn }));

/** The model of an id, or undefined (an id the catalogue no longer has). */
export const catalogueModel = (id: string | null | undefined): CatalogueModel | undefined =>
  id ? CATALOGUE_MODELS.find((model) => model.id === id) : undefined;

/** A deal's value: the override, else its model's price, else null (nothing to sum). */
export function dealValue(deal: { modelId: string | null; estimatedValue: number | null }): number | null {
  return deal.estimatedValue ?? catalogueModel(deal.modelId)?.price ?? null;
}

/** "$229,000" (the panel's money: whole pesos). */
export { formatPesos };
