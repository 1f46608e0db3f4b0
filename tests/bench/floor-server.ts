/**
 * The floor of `bench:api` (issue #25): the least a lead endpoint can do on
 * this database. node:http, parse the JSON body, normalise the phone, one
 * INSERT through a pool of 10 into `floor_leads` (a table of the shape of
 * cotizaciones_rapidas, made by the bench), answer 201 with the id. No
 * validation, no contact, no notifications, no log line: what our endpoint
 * costs above this is what it does.
 *
 * Started by the bench with spawnServer (PORT, HOST, DATABASE_URL,
 * EXIT_WITH_PARENT); prints `Listening on <url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { normalizePhone } from '../../src/lib/forms/phone.ts';
import { onParentExit } from '../../src/server/local/lifetime.ts';

const parent = process.ppid;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});

const server = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    void (async () => {
      try {
        const input = JSON.parse(body) as { name: string; phone: string; email?: string; origin?: string };
        const { rows } = await pool.query<{ id: string }>(
          `INSERT INTO floor_leads (name, phone, email, origin, contact_id, privacy_accepted_at)
           VALUES ($1, $2, $3, $4, gen_random_uuid(), now()) RETURNING id`,
          [input.name, normalizePhone(input.phone), input.email ?? null, input.origin ?? 'unknown'],
        );
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ id: rows[0]?.id }));
      } catch (error) {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: (error as Error).message }));
      }
    })();
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Listening on http://127.0.0.1:${port}`);
});
const stop = () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
if (process.env.EXIT_WITH_PARENT) onParentExit(stop, parent);
