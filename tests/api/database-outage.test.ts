import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import { postJson, startServer } from '../support/server.ts';

const directories: string[] = [];
async function tempDir(): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'casas-outage-'));
  directories.push(directory);
  // PostgreSQL runs as its own user when the tests run as root: let it in.
  await chmod(directory, 0o755);
  return directory;
}
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function rowsWithKey(url: string, table: string, key: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(`SELECT 1 FROM ${table} WHERE idempotency_key = $1`, [key])).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL stopped', () => {
  const forms = [
    {
      path: '/api/quick-quotes',
      table: 'cotizaciones_rapidas',
      body: quickQuote(),
      message: 'Hubo un problema al enviar tu información. Por favor intenta de nuevo.',
    },
    {
      path: '/api/quote-requests',
      table: 'quote_requests',
      body: preFilter(),
      // The pre-filter's own text (src/lib/forms/pre-filter.ts); the estimate has its own.
      message: 'No se pudo guardar tu información. Inténtalo de nuevo.',
    },
    {
      path: '/api/partner-applications',
      table: 'partner_applications',
      body: partnerApplication(),
      message: 'No se pudo guardar en este momento, intenta después.',
    },
  ];

  it('answers 503 with the form’s Spanish text and stores nothing; the retry with the same key stores once', async () => {
    const dataDir = await tempDir();
    let database: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir });
    await migrate(database.url);
    const server = await startServer({ DATABASE_URL: database.url });
    const keys = forms.map(() => randomUUID());

    await database.stop();
    for (const [index, form] of forms.entries()) {
      const response = await postJson(server.url + form.path, form.body, { 'Idempotency-Key': keys[index] as string });
      expect(response.status, form.path).toBe(503);
      expect(await response.json()).toEqual({ error: form.message });
    }

    database = await startEmbeddedPostgres({ dataDir, port: database.port });
    try {
      for (const [index, form] of forms.entries()) {
        const key = keys[index] as string;
        expect(await rowsWithKey(database.url, form.table, key), form.path).toBe(0);
        const retry = await postJson(server.url + form.path, form.body, { 'Idempotency-Key': key });
        const again = await postJson(server.url + form.path, form.body, { 'Idempotency-Key': key });
        expect(retry.status, form.path).toBe(201);
        expect(await again.json()).toEqual(await retry.json());
        expect(await rowsWithKey(database.url, form.table, key), form.path).toBe(1);
      }
    } finally {
      await server.stop();
      await database.stop();
    }
  });
});

describe('stopping the server', () => {
  it('answers every request in flight and stops its embedded PostgreSQL cleanly on SIGTERM', async () => {
    const dataDir = await tempDir();
    // 100 leads in flight from this machine: past the function's own rateLimit (tested in platform-rate-limit).
    const server = await startServer({ DATABASE_URL: undefined, DATA_DIR: dataDir, PLATFORM_RATE_LIMIT: '0' });

    const keys = Array.from({ length: 100 }, () => randomUUID());
    let firstStored: () => void = () => {};
    const oneStored = new Promise<void>((resolve) => {
      firstStored = resolve;
    });
    const inFlight = keys.map((key) =>
      postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'En vuelo' }), { 'Idempotency-Key': key }).then(
        (response) => {
          if (response.status === 201) firstStored();
          return response.status;
        },
        () => 'refused' as const,
      ),
    );
    // SIGTERM once the server has stored one: the others are in flight or not yet accepted, whatever the machine's load.
    await oneStored;
    const exitCode = await server.stop('SIGTERM');
    const outcomes = await Promise.all(inFlight);

    expect(exitCode).toBe(0);
    // Each request was answered 201, or never accepted; none failed half-way.
    expect(outcomes.filter((outcome) => outcome !== 201 && outcome !== 'refused')).toEqual([]);
    expect(outcomes.filter((outcome) => outcome === 201).length).toBeGreaterThan(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    const database = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres') });
    try {
      const accepted = keys.filter((_, index) => outcomes[index] === 201);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query('SELECT idempotency_key FROM cotizaciones_rapidas');
      await client.end();
      expect(rows.map((row) => row.idempotency_key).sort()).toEqual(accepted.sort());
    } finally {
      await database.stop();
    }
  }, 90_000); // two starts of PostgreSQL and 100 leads: the default 30 s is too tight on a busy machine
});
