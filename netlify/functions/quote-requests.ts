import type { Config } from '@netlify/functions';
import { quoteRequestMessages, quoteRequestSchema } from '../../src/lib/forms/quote-request.ts';
import { decoyId, leadHandler } from '../../src/server/http/lead-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { insertLead } from '../../src/server/leads/repository.ts';
import { quoteRequestRow } from '../../src/server/leads/rows.ts';

/** POST /api/quote-requests: /prefiltro and /estimacion -> quote_requests. */
export default logged(
  'quote-requests',
  leadHandler({
    name: 'quote-requests',
    schema: quoteRequestSchema,
    messages: quoteRequestMessages,
    async save(db, input, idempotency, rateLimit, client) {
      const lead = await insertLead(db, 'quote_requests', quoteRequestRow(input), idempotency, [], rateLimit, client);
      return { lead, answer: { id: lead.id } };
    },
    decoy: () => ({ id: decoyId() }),
  }),
);

export const config: Config = {
  path: '/api/quote-requests',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
