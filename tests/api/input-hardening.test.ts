import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { originOf, setupAdmin } from '../support/admin.ts';
import { freshServer } from '../support/fresh-server.ts';
import { estimate, partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/** Issue #9, input and output, and the client address: each item failed on the main branch before the fix. */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});

describe('the estimate without a terrain size', () => {
  it('absent, null and "" all mean "not given": 201 and no size stored', async () => {
    const { terrain_size: _absent, ...withoutSize } = estimate({ name: 'Sin terreno' });
    for (const body of [withoutSize, estimate({ terrain_size: null }), estimate({ terrain_size: '' })]) {
      const response = await postJson(`${server.url}/api/quote-requests`, body);
      expect(response.status, JSON.stringify(body)).toBe(201);
      const { id } = await response.json();
      const [row] = await sql<{ terrain_size: string | null; has_land: string }>(
        'SELECT terrain_size, has_land FROM quote_requests WHERE id = $1',
        [id],
      );
      expect(row).toEqual({ terrain_size: null, has_land: 'no' });
    }
  });
});

describe('names and texts', () => {
  it('refuses a required name made only of invisible characters', async () => {
    for (const name of ['\u200B', '\u2060\u2060', '\u0301', ' \u200B\u0301 ', '\u202E']) {
      const response = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name }));
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect((await response.json()).fields.name).toBe('Escribe tu nombre.');
    }
    const municipality = await postJson(
      `${server.url}/api/partner-applications`,
      partnerApplication({ municipality: '\u200B' }),
    );
    expect((await municipality.json()).fields.municipality).toBe('Escribe el municipio del proyecto.');
  });

  it('removes bidirectional controls before storing (marks too: issue #38, item 6)', async () => {
    const response = await postJson(
      `${server.url}/api/quote-requests`,
      preFilter({ name: 'Ana \u202Ecsv.exe\u202C López\u200F', municipality: '\u2066Mérida\u2069\u061C\u200E' }),
    );
    expect(response.status).toBe(201);
    const { id } = await response.json();
    const [row] = await sql<{ name: string; municipality: string }>(
      'SELECT name, municipality FROM quote_requests WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ name: 'Ana csv.exe López', municipality: 'Mérida' });
  });
});

describe('idempotency keys bound to their request', () => {
  it('the same key and payload replays the first answer; another payload gets 422 and stores nothing', async () => {
    const key = randomUUID();
    const first = await postJson(`${server.url}/api/partner-applications`, partnerApplication(), {
      'Idempotency-Key': key,
    });
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const replay = await postJson(`${server.url}/api/partner-applications`, partnerApplication(), {
      'Idempotency-Key': key,
    });
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(firstBody);

    const other = await postJson(
      `${server.url}/api/partner-applications`,
      partnerApplication({ investment: 'menor-500k', name: 'Otra persona' }),
      { 'Idempotency-Key': key },
    );
    expect(other.status).toBe(422);
    expect((await other.json()).error).toBe(
      'Esta solicitud ya se envió con otros datos. Recarga la página y envíala de nuevo.',
    );
    expect(await countRows('partner_applications', 'idempotency_key = $1', [key])).toBe(1);
    expect(await countRows('partner_applications', "name = 'Otra persona'")).toBe(0);
  });
});

describe('platform files', () => {
  it('never serves _headers or _redirects, however the path is encoded', async () => {
    for (const path of [
      '/_headers',
      '/%5fheaders',
      '/%5Fheaders',
      '/_header%73',
      '/%5F%68eaders',
      '/_redirects',
      '/%5fredirects',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('Strict-Transport-Security');
    }
    // Paths a browser would tidy before sending, sent as they are.
    const { request } = await import('node:http');
    for (const raw of ['//_headers', '/./_headers', '/x/../_headers', '///%5fheaders', '/%2f_headers']) {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { hostname, port } = new URL(server.url);
        const call = request({ hostname, port, path: raw }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        call.on('error', reject);
        call.end();
      });
      expect(status, raw).toBe(404);
      expect(body, raw).not.toContain('Strict-Transport-Security');
    }
  });
});

describe('admin list cursors', () => {
  it('answers 400 to a well-formed cursor that is not a real time or id', async () => {
    const cookie = await setupAdmin(server.url);
    const cursors = [
      '2024-13-45T99:99:99.000000Z|00000000-0000-4000-8000-000000000000',
      '2024-02-30T10:00:00.000000Z|00000000-0000-4000-8000-000000000000',
      '2024-01-01T10:00:00.000000Z|------------------------------------',
      '2024-01-01T10:00:00.000000Z|zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    ];
    for (const raw of cursors) {
      const cursor = Buffer.from(raw).toString('base64url');
      const response = await fetch(`${server.url}/api/admin/quick-quotes?cursor=${cursor}`, {
        headers: { Cookie: cookie },
      });
      expect(response.status, raw).toBe(400);
    }
    expect(server.output()).not.toMatch(/"status":503/);
  });
});

describe('the client address', () => {
  it('X-Forwarded-For from a client on this machine is not believed: the lead limit holds', async () => {
    const limited = await freshServer({ LEAD_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await postJson(`${limited.url}/api/quick-quotes`, quickQuote(), {
        'X-Forwarded-For': `203.0.113.${index}`,
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });

  it('a 6 KB X-Forwarded-For header still stores the lead', async () => {
    const response = await postJson(`${server.url}/api/quick-quotes`, quickQuote(), {
      'X-Forwarded-For': 'a'.repeat(6000),
    });
    expect(response.status).toBe(201);
  });

  // One server for both: the same limits, and each test writes from addresses of its own (IPv4 and
  // the proxy's own for the first, IPv6 for the second), so neither sees the other's count.
  describe('LEAD_RATE_LIMIT=2 behind a trusted proxy (TRUST_PROXY=loopback)', () => {
    let proxied: RunningServer;
    beforeAll(async () => {
      proxied = await freshServer({ LEAD_RATE_LIMIT: '2', TRUST_PROXY: 'loopback' });
    });
    const send = (forwardedFor: string) =>
      postJson(`${proxied.url}/api/quick-quotes`, quickQuote(), { 'X-Forwarded-For': forwardedFor });

    it('behind a trusted proxy, the right-most untrusted address is the client, and only valid addresses count', async () => {
      // The spoofed left-most entries vary; the address the proxy saw (right-most) is the same client.
      expect((await send('1.1.1.1, 198.51.100.7')).status).toBe(201);
      expect((await send('2.2.2.2, 198.51.100.7')).status).toBe(201);
      expect((await send('3.3.3.3, 198.51.100.7')).status).toBe(429);
      // Another client has its own allowance.
      expect((await send('198.51.100.8')).status).toBe(201);
      // A long value that is no address is not a client of its own: it counts as the proxy itself.
      const long = `${'9'.repeat(70)}`;
      expect((await send(long)).status).toBe(201);
      expect((await send(`${long}0`)).status).toBe(201);
      expect((await send(`${long}1`)).status).toBe(429);
    });

    it('an IPv6 client is counted by its /64 network, whichever of its addresses it writes from (issue #38)', async () => {
      expect((await send('2001:db8:1:2::a')).status).toBe(201);
      expect((await send('2001:db8:1:2:ffff:ffff:ffff:b')).status).toBe(201);
      expect((await send('2001:0db8:0001:0002::c')).status).toBe(429);
      // The next /64 is another client.
      expect((await send('2001:db8:1:3::a')).status).toBe(201);
    });
  });
});

describe('the administrator pages', () => {
  it('send a policy of their own that allows no third-party host, unlike the public pages', async () => {
    for (const page of ['/admin', '/auth']) {
      const policy = (await fetch(`${server.url}${page}`)).headers.get('content-security-policy') ?? '';
      expect(policy, page).toMatch(/script-src 'self'/);
      expect(policy, page).not.toMatch(/vapi|daily|youtube|pluot/);
    }
    const publicPolicy = (await fetch(`${server.url}/`)).headers.get('content-security-policy') ?? '';
    expect(publicPolicy).toMatch(/api\.vapi\.ai/);
  });

  it('same-origin writes still hold for the login', async () => {
    const response = await postJson(
      `${server.url}/api/auth/login`,
      { email: 'a@ceiba.mx', password: 'x' },
      { Origin: 'https://otro-sitio.example' },
    );
    expect(response.status).toBe(403);
    expect(originOf(server.url)).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });
});
