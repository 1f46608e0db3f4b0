import { describe, expect, it } from 'vitest';
import { type Answers, fitLabels, greeting, readAnswers } from './fit.ts';

const SALVIA = { priceFromMxn: 229_000, sizeM2: 12.04, capacity: 2 };
const SAND_PLUS = { priceFromMxn: 760_800, sizeM2: 57.5, capacity: 6 };

describe('fitting the models to the visitor’s answers', () => {
  it('marks what fits the budget and the land, with the capacity; nothing when one of them does not fit', () => {
    const answers: Answers = { name: 'Ana López', budget: '300k-500k', terrain_size: '40' };
    expect(fitLabels(SALVIA, answers)).toEqual(['Dentro de tu presupuesto', 'Cabe en tu terreno', 'Para 2 personas']);
    expect(fitLabels(SAND_PLUS, answers)).toEqual([]);
    expect(fitLabels(SAND_PLUS, { name: 'Ana', budget: '1.2M+' })).toEqual([
      'Dentro de tu presupuesto',
      'Para 6 personas',
    ]);
    expect(fitLabels(SAND_PLUS, { name: 'Ana', budget: 'Aún no lo sé', terrain_size: '' })).toEqual([]);
  });

  it('greets by first name and reads both forms’ answers, the estimate’s over the pre-filter’s', () => {
    const store = new Map([
      ['preFilterData', JSON.stringify({ name: 'Ana López', land_option: 'tengo-terreno' })],
      ['estimateData', JSON.stringify({ name: 'Ana María López', budget: '500k-800k' })],
    ]);
    const answers = readAnswers({ getItem: (key) => store.get(key) ?? null });
    expect(answers).toEqual({ name: 'Ana María López', land_option: 'tengo-terreno', budget: '500k-800k' });
    expect(greeting(answers as Answers, 4)).toMatch(/^Hola, Ana: marcamos los 4 modelos que encajan/);
    expect(readAnswers({ getItem: () => '{roto' })).toBeNull();
  });
});
