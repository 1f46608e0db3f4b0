import type { Config } from '@netlify/functions';
import { partnerForm } from '../../src/lib/forms/partner-application.ts';
import { decoyId, leadHandler } from '../../src/server/http/lead-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { scorePartnerApplication } from '../../src/server/leads/partner-score.ts';
import { insertLead } from '../../src/server/leads/repository.ts';
import { partnerApplicationRow } from '../../src/server/leads/rows.ts';

/** POST /api/partner-applications: /prefiltro-socios -> partner_applications, scored here. */
export default logged(
  'partner-applications',
  leadHandler({
    name: 'partner-applications',
    schema: partnerForm.schema,
    messages: partnerForm.messages,
    async save(db, input, idempotency, rateLimit, client) {
      const row = partnerApplicationRow(input, scorePartnerApplication(input));
      // A retried submission answers with the verdict stored the first time.
      const lead = await insertLead(
        db,
        'partner_applications',
        row,
        idempotency,
        ['status', 'score'],
        rateLimit,
        client,
      );
      return { lead, answer: { id: lead.id, status: lead.values.status, score: lead.values.score } };
    },
    decoy: () => ({ id: decoyId(), status: 'rejected', score: 0 }),
  }),
);

export const config: Config = {
  path: '/api/partner-applications',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
