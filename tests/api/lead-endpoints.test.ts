import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectTimeOrderedId } from '../support/ids.ts';
import { estimate, partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

let server: RunningServer;
beforeAll(async () => {
  // The platform's rate limit per function (30 a minute) is the story of a server of its own below: this one takes
  // every request the file sends from 127.0.0.1.
  server = await startServer({ PLATFORM_RATE_LIMIT: '0' });
});

const endpoints = [
  { path: '/api/quick-quotes', table: 'cotizaciones_rapidas', valid: quickQuote },
  { path: '/api/quote-requests', table: 'quote_requests', valid: preFilter },
  { path: '/api/partner-applications', table: 'partner_applications', valid: partnerApplication },
] as const;

describe.each(endpoints)('$path', ({ path, table, valid }) => {
  const url = () => server.url + path;

  it('answers 405 with Allow to other methods', async () => {
    const response = await fetch(url(), { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({ error: 'Método no permitido.' });
  });

  it('answers 415 when the body is not JSON', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      body: 'name=Ana',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect((await response.json()).error).toMatch(/JSON/);
  });

  it('sends a form the browser posted by itself (its script not loaded yet, or off) to a page that says so, and stores nothing', async () => {
    const before = await countRows(table);
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await fetch(url(), {
        method: 'POST',
        body: 'name=Ana+Pech&phone=9991234567',
        headers: { 'Content-Type': type, Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
        redirect: 'manual',
      });
      expect(response.status, type).toBe(303);
      expect(response.headers.get('location'), type).toBe('/solicitud-no-enviada');
    }
    expect(await countRows(table)).toBe(before);
  });

  it('answers 400 to malformed JSON and to JSON that is not an object', async () => {
    for (const body of ['{"name": ', '[1,2]', 'null', '"texto"']) {
      const response = await postJson(url(), body);
      expect(response.status, body).toBe(400);
      expect((await response.json()).error, body).toMatch(/JSON/);
    }
  });

  it('answers 413 to a body over 16 KB, declared or streamed', async () => {
    const big = JSON.stringify(valid({ name: 'x'.repeat(17 * 1024) }));
    expect((await postJson(url(), big)).status).toBe(413);

    const chunks = [new TextEncoder().encode(big)];
    const streamed = await fetch(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: new ReadableStream({
        pull: (controller) => (chunks.length ? controller.enqueue(chunks.pop()) : controller.close()),
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await countRows(table)).toBe(0);
  });

  it('stores nothing from a visitor who goes away mid-body, and keeps serving', async () => {
    const body = JSON.stringify(valid({ name: 'Se fue a medias' }));
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`,
          () => {
            socket.destroy();
            resolve();
          },
        );
      });
      socket.on('error', reject);
    });
    // Still serving (a 405 stores nothing for the tests after this one).
    expect((await fetch(url(), { method: 'GET' })).status).toBe(405);
    expect(await countRows(table, "name = 'Se fue a medias'")).toBe(0);
    // Answered 400 to nobody, not a 500 nor a stray error.
    const answered = new RegExp(`"path":"${path}","status":400`);
    await expect.poll(() => server.output()).toMatch(answered);
    expect(server.output()).not.toMatch(/uncaught_exception|unhandled_rejection|"status":500/);
  });

  it('answers 400 with a Spanish message per field when required fields are missing', async () => {
    const response = await postJson(url(), { ...valid(), name: '   ', phone: undefined });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.fields.name).toBe('Escribe tu nombre.');
    expect(body.fields.phone).toBe('Escribe tu número de WhatsApp.');
    expect(await countRows(table)).toBe(0);
  });

  it('sends the security headers and no-store on every answer', async () => {
    const response = await postJson(url(), {});
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('stores one row for one idempotency key, and answers the same both times', async () => {
    const key = randomUUID();
    const first = await postJson(url(), valid(), { 'Idempotency-Key': key });
    const second = await postJson(url(), valid(), { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual(await first.json());
    // The same key with other data is refused: the key belongs to the first request.
    expect((await postJson(url(), valid({ name: 'Otro nombre' }), { 'Idempotency-Key': key })).status).toBe(422);
    expect(await countRows(table, 'idempotency_key = $1', [key])).toBe(1);
  });

  it('refuses a malformed idempotency key', async () => {
    const response = await postJson(url(), valid(), { 'Idempotency-Key': 'x y' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/Idempotency-Key/);
  });

  it('answers a filled honeypot like a success and stores nothing', async () => {
    const before = await countRows(table);
    const response = await postJson(url(), valid({ nota_interna: 'http://spam.example' }));
    expect(response.status).toBe(201);
    expect((await response.json()).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await countRows(table)).toBe(before);
  });

  it('stores the attribution of the visit', async () => {
    const key = randomUUID();
    const attribution = {
      utm_source: 'facebook',
      utm_medium: 'cpc',
      utm_campaign: 'tulum-2026',
      utm_term: 'casas prefabricadas',
      utm_content: 'video-a',
      referrer: 'https://www.facebook.com/',
      landing_path: '/modelos?utm_source=facebook',
    };
    expect((await postJson(url(), valid(attribution), { 'Idempotency-Key': key })).status).toBe(201);
    const [row] = await sql(
      `SELECT utm_source, utm_medium, utm_campaign, utm_term, utm_content, referrer, landing_path
       FROM ${table} WHERE idempotency_key = $1`,
      [key],
    );
    expect(row).toEqual(attribution);
  });

  it('keeps a lead whose attribution is not clean text: the hidden values are cleaned and cut, never a refusal', async () => {
    const key = randomUUID();
    // A tab in a utm value, a value over its 200 characters cut in the middle of an emoji by an older page script,
    // a lone surrogate, and a value that is no text at all.
    const response = await postJson(
      url(),
      valid({
        utm_term: 'casas\tprefabricadas',
        utm_campaign: `${'a'.repeat(199)}🏠🏠`,
        utm_content: 'video\ud800',
        utm_medium: 42,
      }),
      { 'Idempotency-Key': key },
    );
    expect(response.status, await response.clone().text()).toBe(201);
    const [row] = await sql(
      `SELECT utm_term, utm_campaign, utm_content, utm_medium FROM ${table} WHERE idempotency_key = $1`,
      [key],
    );
    expect(row).toEqual({
      utm_term: 'casas prefabricadas',
      utm_campaign: `${'a'.repeat(199)}🏠`,
      utm_content: 'video\ufffd',
      utm_medium: null,
    });
  });
});

describe('field mapping (docs/product.md §11)', () => {
  async function stored(path: string, table: string, body: object) {
    const key = randomUUID();
    const response = await postJson(server.url + path, body, { 'Idempotency-Key': key });
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    const [row] = await sql(`SELECT * FROM ${table} WHERE idempotency_key = $1`, [key]);
    return row;
  }

  it('stores a quick quote with a normalised phone, a lower-cased e-mail and trimmed text', async () => {
    const row = await stored('/api/quick-quotes', 'cotizaciones_rapidas', {
      name: '  Ana López ',
      phone: '999-123-4567',
      email: ' Ana.Lopez@Correo.MX ',
      origin: 'paths',
    });
    expect(row).toMatchObject({
      name: 'Ana López',
      phone: '+529991234567',
      email: 'ana.lopez@correo.mx',
      origin: 'paths',
    });
  });

  it('stores a quick quote without e-mail or origin as null and unknown', async () => {
    const row = await stored('/api/quick-quotes', 'cotizaciones_rapidas', {
      name: 'Ana',
      phone: '9991234567',
      email: '',
    });
    expect(row).toMatchObject({ email: null, origin: 'unknown' });
    // Empty and null are absent too (docs/product.md §4): the lead is kept, its origin unknown.
    for (const origin of ['', null]) {
      const same = await stored('/api/quick-quotes', 'cotizaciones_rapidas', {
        name: 'Ana',
        phone: '9991234567',
        origin,
      });
      expect(same).toMatchObject({ origin: 'unknown' });
    }
  });

  it('maps the pre-filter: land option to has_land, objective to house_size, timeline to need_land_help', async () => {
    const row = await stored('/api/quote-requests', 'quote_requests', preFilter());
    expect(row).toMatchObject({
      source: 'prefiltro',
      name: 'Carlos Pech',
      phone: '+529997654321',
      state: 'Yucatán',
      municipality: 'Progreso',
      has_land: 'tengo-terreno',
      need_land_help: '0-60-dias',
      house_size: 'vivienda-propia',
      email: null,
      terrain_size: null,
      levels: null,
      finishes: null,
      budget: null,
      timeline: null,
      objective: null,
    });
  });

  it('maps the estimate with its fixed values, has_land "no" and the default budget', async () => {
    const row = await stored('/api/quote-requests', 'quote_requests', estimate());
    expect(row).toMatchObject({
      source: 'estimacion',
      name: 'María Canul',
      phone: '+529995550101',
      email: null,
      terrain_size: null,
      levels: 1,
      finishes: 'basico',
      budget: 'Aún no lo sé',
      state: 'Yucatán',
      municipality: 'Mérida',
      has_land: 'no',
      timeline: '1-3 meses',
      objective: 'cotizacion',
      need_land_help: null,
      house_size: null,
    });
  });

  it('keeps the municipality a person gave: an estimate’s fixed “Mérida” is the request’s, not theirs', async () => {
    const phone = '9995550177';
    expect(
      (await postJson(`${server.url}/api/quote-requests`, preFilter({ phone, municipality: 'Tulum' }))).status,
    ).toBe(201);
    expect((await postJson(`${server.url}/api/quote-requests`, estimate({ phone }))).status).toBe(201);
    const [contact] = await sql<{ municipality: string }>('SELECT municipality FROM contacts WHERE phone = $1', [
      `+52${phone}`,
    ]);
    expect(contact?.municipality).toBe('Tulum');
  });

  it('maps an estimate with a terrain size to has_land "si"', async () => {
    const row = await stored(
      '/api/quote-requests',
      'quote_requests',
      estimate({ terrain_size: '250.5', levels: 2, finishes: 'premium', budget: '800k-1.2M', email: 'M@x.mx' }),
    );
    expect(row).toMatchObject({
      terrain_size: '250.5',
      has_land: 'si',
      levels: 2,
      finishes: 'premium',
      budget: '800k-1.2M',
      email: 'm@x.mx',
    });
  });

  it('ignores a score and status sent by the browser', async () => {
    const body = partnerApplication({
      investment: 'menor-500k',
      timeline: '6-12-meses',
      score: 13,
      status: 'approved',
    });
    const response = await postJson(`${server.url}/api/partner-applications`, body);
    expect(await response.json()).toMatchObject({ status: 'rejected', score: 6 });
  });
});

describe('validation messages', () => {
  it('names each option outside its set', async () => {
    const response = await postJson(
      `${server.url}/api/quote-requests`,
      preFilter({ land_option: 'castillo', state: 'Ciudad de México', timeline: 'ayer', objective: 7 }),
    );
    expect(response.status).toBe(400);
    const { fields } = await response.json();
    expect(fields).toEqual({
      land_option: 'Elige una opción de la lista.',
      state: 'Elige una opción de la lista.',
      timeline: 'Elige una opción de la lista.',
      objective: 'Elige una opción de la lista.',
    });
  });

  it('requires the land option and the municipality of the pre-filter', async () => {
    const response = await postJson(
      `${server.url}/api/quote-requests`,
      preFilter({ land_option: '', municipality: '' }),
    );
    expect((await response.json()).fields).toEqual({
      land_option: 'Dinos si ya tienes terreno.',
      municipality: 'Escribe tu municipio.',
    });
  });

  it('refuses an unknown source, a bad phone, a bad e-mail and a bad terrain size', async () => {
    const noSource = await postJson(`${server.url}/api/quote-requests`, { name: 'x' });
    expect((await noSource.json()).fields).toEqual({ source: 'Tipo de solicitud no válido.' });

    const response = await postJson(
      `${server.url}/api/quote-requests`,
      estimate({ phone: '12345', email: 'no-es-correo', terrain_size: 'mucho', levels: 3 }),
    );
    expect((await response.json()).fields).toEqual({
      phone: 'Escribe un número de 10 dígitos, por ejemplo 999 123 4567.',
      email: 'Escribe un correo válido, por ejemplo nombre@correo.com.',
      terrain_size: 'Escribe los metros cuadrados con números, de 1 a 1,000,000.',
      levels: 'Elige 1 o 2 niveles.',
    });
  });

  it('requires every answer that decides a partner score', async () => {
    const response = await postJson(
      `${server.url}/api/partner-applications`,
      partnerApplication({ role: undefined, investment: '', timeline: null, legal_documentation: 'tal vez' }),
    );
    expect((await response.json()).fields).toEqual({
      role: 'Cuéntanos cuál es tu rol en el proyecto.',
      investment: 'Elige el rango de inversión.',
      timeline: 'Elige cuándo quieres iniciar.',
      legal_documentation: 'Elige una opción de la lista.',
    });
  });

  it('refuses text that is too long, and control characters, in what the visitor typed (never in the hidden attribution)', async () => {
    const response = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'a'.repeat(121), email: 'ana\u0000@correo.mx', utm_source: 'fb\u0000' }),
    );
    expect((await response.json()).fields).toEqual({
      name: 'Usa como máximo 120 caracteres.',
      email: expect.any(String),
    });
  });
});

describe.each(endpoints)('$path: the consent of the press (issue #25)', ({ path, table, valid }) => {
  const DAY = 86_400_000;
  const stored = async (name: string) =>
    (
      await sql<{ privacy_version: string; privacy_accepted_at: Date }>(
        `SELECT privacy_version, privacy_accepted_at FROM ${table} WHERE name = $1`,
        [name],
      )
    )[0];

  it('records the version the visitor saw and the time they pressed send, days before delivery', async () => {
    const pressed = new Date(Date.now() - 3 * DAY);
    const body = valid({
      name: 'Envío Tardío',
      privacy_version: '2026-11-23',
      privacy_accepted_at: pressed.toISOString(),
    });
    expect((await postJson(server.url + path, body)).status).toBe(201);
    const row = await stored('Envío Tardío');
    expect(row?.privacy_version).toBe('2026-11-23');
    expect(row?.privacy_accepted_at.toISOString()).toBe(pressed.toISOString());
  });

  it("bounds the time by the server's clock: not ahead of it, not older than the outbox keeps a request", async () => {
    for (const [name, offset] of [
      ['Reloj Adelantado', 60 * 60_000],
      ['Reloj Atrasado', -8 * DAY],
    ] as const) {
      const before = Date.now();
      const claimed = new Date(before + offset).toISOString();
      const answer = await postJson(server.url + path, valid({ name, privacy_accepted_at: claimed }));
      expect(answer.status, name).toBe(201);
      const at = (await stored(name))?.privacy_accepted_at.getTime() ?? 0;
      expect(at, name).toBeGreaterThanOrEqual(before - 1000);
      expect(at, name).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it('refuses a version of the notice that was never published, or a time that is not one, with a 400 in Spanish', async () => {
    for (const [name, extra, field, message] of [
      [
        'Versión Inventada',
        { privacy_version: '2030-01-01' },
        'privacy_version',
        'La versión del aviso de privacidad no es válida. Recarga la página.',
      ],
      [
        'Hora Inventada',
        { privacy_accepted_at: 'ayer' },
        'privacy_accepted_at',
        'La hora de aceptación del aviso de privacidad no es válida.',
      ],
    ] as const) {
      const answer = await postJson(server.url + path, valid({ name, ...extra }));
      expect(answer.status, name).toBe(400);
      expect(((await answer.json()) as { fields: Record<string, string> }).fields[field]).toBe(message);
      expect(await stored(name)).toBeUndefined();
    }
  });
});

describe('rate limit per IP', () => {
  it('answers 429 with a Spanish message past LEAD_RATE_LIMIT, per endpoint', async () => {
    const limited = await startServer({ LEAD_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await postJson(`${limited.url}/api/quick-quotes`, quickQuote())).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await postJson(`${limited.url}/api/quick-quotes`, quickQuote());
    // Until the window ends (10 minutes at most): a request kept in the visitor's outbox waits for it.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect((await refused.json()).error).toBe(
      'Recibimos demasiadas solicitudes desde tu conexión. Espera unos minutos e inténtalo de nuevo.',
    );
    // Another endpoint has its own allowance.
    expect((await postJson(`${limited.url}/api/quote-requests`, preFilter())).status).toBe(201);
  });
});

describe('logs', () => {
  it('writes one JSON line per call, with request id, function, status and duration, and no phone or e-mail', async () => {
    const requestId = randomUUID();
    await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ phone: '999 765 1234', email: 'privado@correo.mx' }),
      {
        'x-nf-request-id': requestId,
      },
    );
    const linesOf = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes(requestId));
    await expect.poll(() => linesOf().length).toBeGreaterThan(0);
    const lines = linesOf();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 'info',
      requestId,
      function: 'quick-quotes',
      method: 'POST',
      path: '/api/quick-quotes',
      status: 201,
      durationMs: expect.any(Number),
    });
    expect(server.output()).not.toMatch(/7651234|privado@correo/);
  });
});

describe('ids (issue #25, decision 0046)', () => {
  it('gives a stored lead and a decoy ids of one form: in time order (UUID version 7), from this moment', async () => {
    // Its own server: the shared one's platform limit is spent by the tests above.
    const own = await startServer({ PLATFORM_RATE_LIMIT: '0' });
    try {
      const before = Date.now();
      const answer = async (body: object) => (await (await postJson(`${own.url}/api/quick-quotes`, body)).json()).id;
      const stored = (await answer(quickQuote())) as string;
      const decoy = (await answer(quickQuote({ nota_interna: 'http://spam.example' }))) as string;
      const after = Date.now();
      expect((await sql('SELECT id FROM cotizaciones_rapidas WHERE id = $1', [stored]))[0]?.id).toBe(stored);
      for (const id of [stored, decoy]) expectTimeOrderedId(id, before, after);
    } finally {
      await own.stop();
    }
  });
});
