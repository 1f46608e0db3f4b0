import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';
import { vapiFixture } from '../support/vapi.ts';

/**
 * Issue #13: whatever arrives at /api/voice/events with the right secret, the
 * answer is a 200 or a 4xx, never a 5xx; and a report either is stored once
 * with its call id or is refused whole.
 */
const SECRET = 'secreto-del-asistente-de-voz-2026';
const REPORT = vapiFixture('end-of-call-report');

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ VAPI_WEBHOOK_SECRET: SECRET });
});

const send = (body: string) =>
  fetch(`${server.url}/api/voice/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Vapi-Secret': SECRET },
    body,
  });

/** Every path of an object (its keys, its items), for replacing one value. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => paths(item, [...prefix, key]))];
}
const REPORT_PATHS = paths(REPORT.message).filter((entry) => entry.length > 0);

function replaced(at: (string | number)[], value: unknown, callId: string): Record<string, unknown> {
  const message = structuredClone(REPORT.message);
  (message.call as { id: string }).id = callId;
  let node: Record<string | number, unknown> = message;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at.at(-1) as string] = value;
  return { message };
}

const hostile = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000', '\ud800', 'javascript:alert(1)', '=1+1', 'x'.repeat(300_000), -1, 1e308, null),
);

describe('/api/voice/events under generated input', () => {
  it('answers any JSON body with 200 or a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ message: fc.jsonValue() })), async (body) => {
        const answer = await send(JSON.stringify(body));
        expect([200, 400, 413]).toContain(answer.status);
        await answer.arrayBuffer();
      }),
      { numRuns: 300 },
    );
  });

  it('stores a report with any one field replaced once, or refuses it whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...REPORT_PATHS), hostile, async (at, value) => {
        const callId = randomUUID();
        const answer = await send(JSON.stringify(replaced(at, value, callId)));
        expect([200, 400, 413], `${at.join('.')} = ${JSON.stringify(value)?.slice(0, 80)}`).toContain(answer.status);
        const body = (await answer.json()) as { stored?: boolean };
        if (at.join('.') === 'call.id') return; // the id itself replaced: nothing to look it up by
        const rows = await sql('SELECT 1 FROM voice_calls WHERE call_id = $1', [callId]);
        expect(rows).toHaveLength(answer.status === 200 && body.stored ? 1 : 0);
      }),
      { numRuns: 400 },
    );
  });
});
