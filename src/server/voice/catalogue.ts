import { z } from 'zod';
import modelsJson from '../../data/models.json' with { type: 'json' };
import { parseData } from '../../data/problems.ts';
import { modelSchema } from '../../data/schemas.ts';

/** The catalogue's models as the voice agent speaks of them (src/data/models.json), in the catalogue's order. */
export type Model = z.output<typeof modelSchema>;
export const MODELS: readonly Model[] = parseData(z.array(modelSchema), modelsJson.models, 'src/data/models.json').sort(
  (a, b) => a.order - b.order,
);
