import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { partnerApplication } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

// The scoring table of docs/product.md §9, written out again here on purpose:
// the test must not share its oracle with the code under test.
const ROLE = { desarrollador: 3, inversionista: 3, propietario: 2, otro: 1 };
const INVESTMENT = { '5m+': 3, '2-5m': 3, '1-2m': 2, '500k-1m': 1, 'menor-500k': -2 };
const TIMELINE = { '0-3-meses': 2, '3-6-meses': 1, '6-12-meses': 0, 'mas-12-meses': 0 };
const LEGAL = { si: 2, no: -999 };
const PAYMENT = { si: 3, no: -999 };

const combinations = Object.keys(ROLE).flatMap((role) =>
  Object.keys(INVESTMENT).flatMap((investment) =>
    Object.keys(TIMELINE).flatMap((timeline) =>
      Object.keys(LEGAL).flatMap((legal_documentation) =>
        Object.keys(PAYMENT).map((consultancy_payment) => ({
          role,
          investment,
          timeline,
          legal_documentation,
          consultancy_payment,
        })),
      ),
    ),
  ),
);

function expected(answers: (typeof combinations)[number]) {
  const score =
    ROLE[answers.role as keyof typeof ROLE] +
    INVESTMENT[answers.investment as keyof typeof INVESTMENT] +
    TIMELINE[answers.timeline as keyof typeof TIMELINE] +
    LEGAL[answers.legal_documentation as keyof typeof LEGAL] +
    PAYMENT[answers.consultancy_payment as keyof typeof PAYMENT];
  const approved = score >= 8 && answers.legal_documentation === 'si' && answers.consultancy_payment === 'si';
  return { score, status: approved ? 'approved' : 'rejected' };
}

let server: RunningServer;
beforeAll(async () => {
  // 320 applications at once from this machine: past the function's own rateLimit (tested in platform-rate-limit).
  server = await startServer({ PLATFORM_RATE_LIMIT: '0' });
});

it('scores all 320 answer combinations on the server as docs/product.md §9 says, and stores the verdict', async () => {
  expect(combinations).toHaveLength(320);
  const results = await Promise.all(
    combinations.map(async (answers) => {
      const key = randomUUID();
      const response = await postJson(`${server.url}/api/partner-applications`, partnerApplication(answers), {
        'Idempotency-Key': key,
      });
      return { answers, key, status: response.status, body: await response.json() };
    }),
  );

  const stored = new Map(
    (
      await sql<{ idempotency_key: string; score: number; status: string }>(
        'SELECT idempotency_key, score, status FROM partner_applications',
      )
    ).map((row) => [row.idempotency_key, row]),
  );
  for (const { answers, key, status, body } of results) {
    const verdict = expected(answers);
    expect(status, JSON.stringify(answers)).toBe(201);
    expect(body, JSON.stringify(answers)).toMatchObject(verdict);
    expect(stored.get(key), JSON.stringify(answers)).toMatchObject(verdict);
  }
  const approved = results.filter((result) => result.body.status === 'approved');
  // Both "si" and at least 8 points: a fixed, non-trivial share of the table.
  expect(approved.length).toBe(combinations.filter((answers) => expected(answers).status === 'approved').length);
  expect(approved.length).toBeGreaterThan(0);
});
