import type { Config } from '@netlify/functions';
import { quickQuoteForm } from '../../src/lib/forms/quick-quote.ts';
import { decoyId, leadHandler } from '../../src/server/http/lead-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { insertLead } from '../../src/server/leads/repository.ts';
import { quickQuoteRow } from '../../src/server/leads/rows.ts';

/** POST /api/quick-quotes: the quick-quote dialog -> cotizaciones_rapidas. */
export default logged(
  'quick-quotes',
  leadHandler({
    name: 'quick-quotes',
    schema: quickQuoteForm.schema,
    messages: quickQuoteForm.messages,
    async save(db, input, idempotency, rateLimit, client) {
      const lead = await insertLead(
        db,
        'cotizaciones_rapidas',
        quickQuoteRow(input),
        idempotency,
        [],
        rateLimit,
        client,
      );
      return { lead, answer: { id: lead.id } };
    },
    decoy: () => ({ id: decoyId() }),
  }),
);

export const config: Config = {
  path: '/api/quick-quotes',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
