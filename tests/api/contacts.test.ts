import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import { LEAD_KINDS } from '../../src/lib/admin/columns.ts';
import { STALE_VERSION } from '../../src/lib/admin/contacts.ts';
import { cookieOf, login, originOf, setupAdmin } from '../support/admin.ts';
import { createDatabaseBefore, createTestDatabase } from '../support/databases.ts';
import { estimate, partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/** Issue #10: one contact per person, its state, history, notes, search, filters, CSV and metrics. */
let server: RunningServer;
let cookie: string;

beforeAll(async () => {
  server = await startServer();
  cookie = await setupAdmin(server.url);
});

const api = (pathname: string, init: RequestInit = {}) =>
  fetch(server.url + pathname, {
    ...init,
    headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json', ...init.headers },
  });
const patch = (id: string, body: unknown) =>
  api(`/api/admin/contacts/${id}`, { method: 'PATCH', body: JSON.stringify(body) });
const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function contactOfPhone(phone: string) {
  const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
  return row?.id as string;
}

describe('one contact per person', () => {
  it('three submissions from one phone through three forms become one prospect with three entries', async () => {
    const phone = uniquePhone();
    const [a, b, c] = [phone, `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, `+52 1 ${phone}`];
    expect(
      (await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Ana', phone: a, email: '' }))).status,
    ).toBe(201);
    expect(
      (
        await postJson(
          `${server.url}/api/quote-requests`,
          estimate({ name: 'Ana López', phone: b, email: 'ana@correo.mx' }),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await postJson(
          `${server.url}/api/partner-applications`,
          partnerApplication({ name: 'Ana López Canul', phone: c, utm_campaign: 'socios-2026' }),
        )
      ).status,
    ).toBe(201);
    const id = await contactOfPhone(phone);
    const detail = await (await api(`/api/admin/contacts/${id}`)).json();
    // The name the team first knew stays; the others are aliases in the history (issue #38, item 11).
    expect(detail).toMatchObject({
      name: 'Ana',
      email: 'ana@correo.mx',
      phone: `+52${phone}`,
      kinds: ['comprador', 'socio'],
      state: 'nuevo',
      requests: 3,
      lastTouch: { utm_campaign: 'socios-2026' },
    });
    expect(
      detail.timeline
        .filter((entry: { type: string }) => entry.type === 'request')
        .map((entry: { form: string }) => entry.form),
    ).toEqual(['cotizacion_rapida', 'estimacion', 'socios']);
    expect(detail.timeline.find((entry: { form?: string }) => entry.form === 'socios').fields).toContainEqual([
      'Inversión',
      '$2 a $5 millones',
    ]);
    expect(
      detail.timeline
        .filter((entry: { kind?: string }) => entry.kind === 'alias')
        .map((entry: { from: string; to: string }) => [entry.from, entry.to]),
    ).toEqual([
      ['Ana', 'Ana López'],
      ['Ana', 'Ana López Canul'],
    ]);
  });

  it('a repeat form lead with another name keeps the name, records the other once, and names a nameless call', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Carlos Canul', phone }));
    const id = await contactOfPhone(phone);
    for (const name of ['Carlos Canul Pérez', 'carlos canul', 'Carlos Canul Pérez']) {
      expect((await postJson(`${server.url}/api/quote-requests`, preFilter({ name, phone }))).status).toBe(201);
    }
    const detail = await (await api(`/api/admin/contacts/${id}`)).json();
    expect(detail).toMatchObject({ name: 'Carlos Canul', requests: 4, version: 1 });
    expect(detail.timeline.filter((entry: { kind?: string }) => entry.kind === 'alias')).toEqual([
      expect.objectContaining({ type: 'event', from: 'Carlos Canul', to: 'Carlos Canul Pérez', actor: null }),
    ]);
    // A contact known only by a call in which no name was given (NAMELESS) takes the form's name, with no alias.
    const caller = uniquePhone();
    await sql(`INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, 'Visitante (llamada de voz)', true)`, [
      `+52${caller}`,
    ]);
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Lupita Chan', phone: caller }));
    const named = await (await api(`/api/admin/contacts/${await contactOfPhone(caller)}`)).json();
    expect(named.name).toBe('Lupita Chan');
    expect(named.timeline.filter((entry: { kind?: string }) => entry.kind === 'alias')).toEqual([]);
  });

  it('20 first submissions from one phone at once give one contact', async () => {
    const phone = uniquePhone();
    const bodies = Array.from({ length: 20 }, (_, index) =>
      index % 2 ? ['/api/quick-quotes', quickQuote({ phone })] : ['/api/quote-requests', preFilter({ phone })],
    ) as [string, object][];
    const statuses = await Promise.all(
      bodies.map(([route, body]) => postJson(server.url + route, body).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(201));
    expect(await countRows('contacts', 'phone = $1', [`+52${phone}`])).toBe(1);
    const id = await contactOfPhone(phone);
    expect(await countRows('cotizaciones_rapidas', 'contact_id = $1', [id])).toBe(10);
    expect(await countRows('quote_requests', 'contact_id = $1', [id])).toBe(10);
  });
});

describe('state, next contact, history', () => {
  it('records every change with who, from and to; a stale version gets 409 and writes nothing', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }));
    const id = await contactOfPhone(phone);
    const first = await patch(id, { state: 'contactado', nextContactAt: '2026-12-01', version: 1 });
    expect(first.status).toBe(200);
    const changed = await first.json();
    // A date alone (the panel before issue #26) means 10:00 in Mérida (UTC-6).
    expect(changed).toMatchObject({ state: 'contactado', nextContactAt: '2026-12-01T16:00:00.000Z', version: 2 });

    const stale = await patch(id, { state: 'en_seguimiento', version: 1 });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error).toBe(STALE_VERSION);

    const lost = await patch(id, { state: 'cerrado_perdido', version: 2 });
    expect(lost.status).toBe(400);
    expect((await lost.json()).fields.lostReason).toBe('Elige el motivo por el que se perdió.');
    expect((await patch(id, { state: 'cerrado_perdido', lostReason: 'sin_terreno', version: 2 })).status).toBe(200);

    const events = (await (await api(`/api/admin/contacts/${id}`)).json()).timeline.filter(
      (entry: { type: string }) => entry.type === 'event',
    );
    expect(events).toEqual([
      expect.objectContaining({ kind: 'state', actor: 'admin@ceiba.mx', from: 'nuevo', to: 'contactado' }),
      expect.objectContaining({
        kind: 'next_contact',
        actor: 'admin@ceiba.mx',
        from: null,
        to: '2026-12-01T16:00:00.000Z',
      }),
      expect.objectContaining({ kind: 'state', from: 'contactado', to: 'cerrado_perdido:sin_terreno' }),
      // Closed, it has no next contact (its reminder is off): the history says it went.
      expect.objectContaining({ kind: 'next_contact', from: '2026-12-01T16:00:00.000Z', to: null }),
    ]);
  });

  it('a new lead from a lost contact reopens it as nuevo, and says so', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }));
    const id = await contactOfPhone(phone);
    await patch(id, { state: 'cerrado_perdido', lostReason: 'sin_terreno', version: 1 });
    await postJson(`${server.url}/api/quote-requests`, preFilter({ name: 'Ana López', phone }));
    const detail = await (await api(`/api/admin/contacts/${id}`)).json();
    expect(detail).toMatchObject({ state: 'nuevo', version: 3 });
    expect(detail.timeline.at(-2)).toMatchObject({ type: 'request', form: 'prefiltro' });
    expect(detail.timeline.at(-1)).toMatchObject({
      type: 'event',
      kind: 'reopened',
      from: 'cerrado_perdido',
      to: 'nuevo',
    });
  });

  it('a new lead from a won contact keeps it won, its sale on the board, and shows on its timeline', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }));
    const id = await contactOfPhone(phone);
    const sold = await patch(id, { state: 'cerrado_ganado', estimatedValue: 1_250_000, version: 1 });
    expect(sold.status).toBe(200);
    const { version } = await sold.json();
    expect((await postJson(`${server.url}/api/quote-requests`, preFilter({ name: 'Ana López', phone }))).status).toBe(
      201,
    );
    const detail = await (await api(`/api/admin/contacts/${id}`)).json();
    expect(detail).toMatchObject({ state: 'cerrado_ganado', version, requests: 2 });
    expect(detail.timeline.at(-2)).toMatchObject({ type: 'request', form: 'prefiltro' });
    expect(detail.timeline.at(-1)).toMatchObject({
      type: 'event',
      kind: 'request_after_sale',
      from: 'cerrado_ganado',
      to: 'cerrado_ganado',
    });
    const [row] = await sql<{ state: string; estimated_value_mxn: number }>(
      'SELECT state, estimated_value_mxn FROM contacts WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ state: 'cerrado_ganado', estimated_value_mxn: 1_250_000 });
  });

  it('refuses a bad date, an unknown state and extra fields with Spanish messages', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }));
    const id = await contactOfPhone(phone);
    for (const body of [
      { nextContactAt: '2026-02-30', version: 1 },
      { state: 'perdido', version: 1 },
      { state: 'contactado', version: 1, name: 'otro' },
      { state: 'contactado' },
    ]) {
      const response = await patch(id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const answer = await response.json();
      expect(Object.values(answer.fields ?? {}).join(' '), JSON.stringify(body)).not.toMatch(
        /Revisa este dato|expected|esperaba/,
      );
    }
    expect((await patch(randomUUID(), { state: 'contactado', version: 1 })).status).toBe(404);
  });
});

describe('notes', () => {
  it('adds notes with author and time; a deletion is recorded; HTML and formulas stay inert in the CSV', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone, name: 'Nota Prueba' }));
    const id = await contactOfPhone(phone);
    const script = await api(`/api/admin/contacts/${id}/notes`, {
      method: 'POST',
      body: JSON.stringify({ body: '<script>alert(1)</script> llamar el lunes' }),
    });
    expect(script.status).toBe(201);
    const { id: noteId } = await script.json();
    expect(
      (
        await api(`/api/admin/contacts/${id}/notes`, {
          method: 'POST',
          body: JSON.stringify({ body: '=HYPERLINK("http://x","y")' }),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api(`/api/admin/contacts/${id}/notes`, {
          method: 'POST',
          body: JSON.stringify({ body: 'x'.repeat(2001) }),
        })
      ).status,
    ).toBe(400);
    expect((await api(`/api/admin/contacts/${id}/notes/${noteId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/admin/contacts/${id}/notes/${noteId}`, { method: 'DELETE' })).status).toBe(404);

    const detail = await (await api(`/api/admin/contacts/${id}`)).json();
    expect(detail.timeline.filter((entry: { type: string }) => entry.type === 'note')).toEqual([
      expect.objectContaining({ author: 'admin@ceiba.mx', body: '=HYPERLINK("http://x","y")' }),
    ]);
    expect(detail.timeline.at(-1)).toMatchObject({ type: 'event', kind: 'note_deleted', actor: 'admin@ceiba.mx' });

    const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
      await (await api(`/api/admin/contacts/export.csv?q=${encodeURIComponent('Nota Prueba')}`)).arrayBuffer(),
    );
    expect(csv.startsWith('\uFEFFPrimera solicitud,Última actividad,Nombre,Teléfono')).toBe(true);
    expect(csv).toContain(`'=HYPERLINK(""http://x"",""y"")`);
    expect(csv).toContain(',Nuevo,');
    expect(csv.trim().split('\r\n')).toHaveLength(2);
  });
});

describe('search, filters and counts', () => {
  it('finds people by name without accents, by phone in any format, by e-mail and by place', async () => {
    const phone = uniquePhone();
    await postJson(
      `${server.url}/api/quote-requests`,
      preFilter({ phone, name: 'Sofía Ek Búho', municipality: 'Tekantó' }),
    );
    await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ phone, name: 'Sofía Ek Búho', email: 'SOFIA.EK@correo.mx' }),
    );
    const find = async (q: string) =>
      (await (await api(`/api/admin/contacts?q=${encodeURIComponent(q)}`)).json()).items.map(
        (item: { phone: string }) => item.phone,
      );
    const e164 = `+52${phone}`;
    for (const q of [
      'sofia ek buho',
      'SOFÍA',
      'buho',
      'tekanto',
      'sofia.ek@correo',
      phone,
      `${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`,
      `+52 ${phone}`,
      `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
    ]) {
      expect(await find(q), q).toEqual([e164]);
    }
    // Wildcards are text, before and after unaccent (which turns the fullwidth ％ into %).
    for (const q of ['%', '％', '_', '＿']) expect(await find(q), q).toEqual([]);
    expect((await api('/api/admin/contacts?from=0000-01-01')).status).toBe(400);
  });

  it('filters by state, kind, form and campaign, and counts per state for the filters', async () => {
    const campaign = `filtro-${randomUUID().slice(0, 8)}`;
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: phones[0], utm_campaign: campaign }));
    await postJson(
      `${server.url}/api/partner-applications`,
      partnerApplication({ phone: phones[1], utm_campaign: campaign }),
    );
    await postJson(`${server.url}/api/quote-requests`, estimate({ phone: phones[2], utm_campaign: campaign }));
    const second = await contactOfPhone(phones[1] as string);
    await patch(second, { state: 'contactado', version: 1 });

    const list = async (query: string) => (await api(`/api/admin/contacts?campaign=${campaign}${query}`)).json();
    const all = await list('');
    expect(all.total).toBe(3);
    expect(all.counts).toEqual({
      nuevo: 2,
      contactado: 1,
      en_seguimiento: 0,
      visita_agendada: 0,
      visito: 0,
      cerrado_ganado: 0,
      cerrado_perdido: 0,
    });
    const contacted = await list('&state=contactado');
    expect(contacted.items.map((item: { phone: string }) => item.phone)).toEqual([`+52${phones[1]}`]);
    expect(contacted.counts.nuevo).toBe(2);
    expect((await list('&kind=socio')).total).toBe(1);
    expect((await list('&form=estimacion')).items[0].phone).toBe(`+52${phones[2]}`);
    expect((await list('&form=cotizacion_rapida')).total).toBe(1);
    expect((await api('/api/admin/contacts?state=perdido')).status).toBe(400);
    expect((await api('/api/admin/contacts?cursor=basura')).status).toBe(400);
  });
});

describe('counts', () => {
  it('without filters, the per-state counts kept by the trigger equal the table', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }));
    await patch(await contactOfPhone(phone), { state: 'en_seguimiento', version: 1 });
    const page = await (await api('/api/admin/contacts')).json();
    const rows = await sql<{ state: string; n: number }>(
      'SELECT state, count(*)::int AS n FROM contacts GROUP BY state',
    );
    const actual = Object.fromEntries(rows.map((row) => [row.state, row.n]));
    for (const [state, n] of Object.entries(page.counts)) expect(n, state).toBe(actual[state] ?? 0);
    expect(page.total).toBe(rows.reduce((sum, row) => sum + row.n, 0));
    expect(page.capped).toBe(false);
  });

  it('a search matching more than 500 people says "more than" instead of counting them all', async () => {
    await sql(`INSERT INTO contacts (phone, name, is_buyer)
      SELECT '+52777' || lpad(n::text, 7, '0'), 'Capado ' || n, true FROM generate_series(1, 1001) n`);
    const page = await (await api('/api/admin/contacts?q=capado')).json();
    expect(page).toMatchObject({ capped: true, total: 500, counts: null });
    expect(page.items).toHaveLength(50);
    const narrow = await (await api('/api/admin/contacts?q=capado%201001')).json();
    expect(narrow).toMatchObject({ capped: false, total: 1, counts: { nuevo: 1 } });
    // The CSV pages through all of them (five batches), each once.
    const csv = await (await api('/api/admin/contacts/export.csv?q=capado')).text();
    const names = csv
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[2]);
    expect(new Set(names).size).toBe(1001);
    expect(names).toHaveLength(1001);
    // A state within a broad search is counted on its own.
    const won = await (await api('/api/admin/contacts?q=capado&state=cerrado_ganado')).json();
    expect(won).toMatchObject({ capped: false, total: 0, counts: null, items: [] });
  });
});

describe('metrics', () => {
  it('answers a fixed data set with known figures', async () => {
    const fresh = await startServer({ DATABASE_URL: await createTestDatabase(inject('pgAdminUrl')) });
    const freshCookie = await setupAdmin(fresh.url);
    const url = new URL(await (await fetch(`${fresh.url}/api/admin-exists`)).url);
    expect(url.pathname).toBe('/api/admin-exists');
    const databaseUrl = /DATABASE_URL=(\S+)/.exec(
      (await import('node:fs')).readFileSync(`/proc/${fresh.process.pid}/environ`, 'utf8').replaceAll('\0', ' '),
    )?.[1] as string;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      // Monday 00:00 of this week in Mérida (UTC-6 all year), as UTC.
      const now = new Date();
      const merida = new Date(now.getTime() - 6 * 3_600_000);
      const mondayOffset = (merida.getUTCDay() + 6) % 7;
      const monday = Date.UTC(merida.getUTCFullYear(), merida.getUTCMonth(), merida.getUTCDate() - mondayOffset, 6);
      const at = (weeksBack: number, hours: number) =>
        new Date(monday - weeksBack * 7 * 86_400_000 + hours * 3_600_000);
      const contact = async (phone: string, created: Date, movedAfterHours: number | null) => {
        const { rows } = await client.query<{ id: string }>(
          `INSERT INTO contacts (phone, name, is_buyer, created_at, last_activity_at, first_moved_at, state)
           VALUES ($1, 'Métrica', true, $2, $2, $3, $4) RETURNING id`,
          [
            phone,
            created,
            movedAfterHours === null ? null : new Date(created.getTime() + movedAfterHours * 3_600_000),
            movedAfterHours === null ? 'nuevo' : 'contactado',
          ],
        );
        return rows[0]?.id as string;
      };
      const lead = (table: string, contactId: string, created: Date, campaign: string | null, source?: string) =>
        table === 'quote_requests'
          ? client.query(
              `INSERT INTO quote_requests (source, name, phone, state, municipality, has_land, levels, finishes, budget, timeline, objective, utm_campaign, contact_id, created_at)
               VALUES ($1, 'Métrica', '+529990000000', 'Yucatán', 'Mérida', $2, 1, 'basico', 'Aún no lo sé', '1-3 meses', 'cotizacion', $3, $4, $5)`,
              [source, source === 'prefiltro' ? 'tengo-terreno' : 'no', campaign, contactId, created],
            )
          : client.query(
              `INSERT INTO cotizaciones_rapidas (name, phone, utm_campaign, contact_id, created_at) VALUES ('Métrica', '+529990000000', $1, $2, $3)`,
              [campaign, contactId, created],
            );

      // Two weeks ago: 3 contacts moved after 2, 4 and 30 hours (median 4). Last week: 1 after 10 h, 1 never.
      const twoWeeks = [
        await contact('+529990000001', at(2, 10), 2),
        await contact('+529990000002', at(2, 20), 4),
        await contact('+529990000003', at(2, 30), 30),
      ];
      const lastWeek = [await contact('+529990000004', at(1, 10), 10), await contact('+529990000005', at(1, 20), null)];
      for (const id of twoWeeks) await lead('cotizaciones_rapidas', id, at(2, 40), 'verano');
      await lead('quote_requests', lastWeek[0] as string, at(1, 10), 'verano', 'estimacion');
      await lead('quote_requests', lastWeek[1] as string, at(1, 20), null, 'prefiltro');
      // 13 weeks ago: outside every window.
      await lead('cotizaciones_rapidas', await contact('+529990000006', at(13, 1), 1), at(13, 1), 'viejo');
    } finally {
      await client.end();
    }

    const response = await fetch(`${fresh.url}/api/admin/metrics`, { headers: { Cookie: freshCookie } });
    expect(response.status).toBe(200);
    const figures = await response.json();
    expect(figures.leadsPerWeek).toHaveLength(12);
    expect(figures.leadsPerWeek.at(-3).counts).toEqual({
      cotizacion_rapida: 3,
      prefiltro: 0,
      estimacion: 0,
      socios: 0,
    });
    expect(figures.leadsPerWeek.at(-2).counts).toEqual({
      cotizacion_rapida: 0,
      prefiltro: 1,
      estimacion: 1,
      socios: 0,
    });
    expect(figures.byForm).toEqual({ cotizacion_rapida: 3, prefiltro: 1, estimacion: 1, socios: 0 });
    expect(figures.byCampaign).toEqual([
      { campaign: 'verano', leads: 4 },
      { campaign: null, leads: 1 },
    ]);
    expect(figures.responseTime).toHaveLength(5);
    expect(figures.responseTime.at(-3)).toMatchObject({ medianHours: 4, contacts: 3 });
    expect(figures.responseTime.at(-2)).toMatchObject({ medianHours: 10, contacts: 1 });
    expect(figures.responseTime.at(-1)).toMatchObject({ medianHours: null, contacts: 0 });
  });
});

describe('metrics beside the live counts', () => {
  it("a lead stored after the figures were shown is in the next answer, as in the header's count of requests", async () => {
    const fresh = await startServer({ DATABASE_URL: await createTestDatabase(inject('pgAdminUrl')) });
    const freshCookie = await setupAdmin(fresh.url);
    const get = async <T>(pathname: string) => {
      const response = await fetch(fresh.url + pathname, { headers: { Cookie: freshCookie } });
      expect(response.status, pathname).toBe(200);
      return (await response.json()) as T;
    };
    const leadsInCard = async () =>
      Object.values((await get<{ byForm: Record<string, number> }>('/api/admin/metrics')).byForm).reduce(
        (sum, n) => sum + n,
        0,
      );
    // The header's "N solicitudes": the totals of every kind's first page (AdminPanel.tsx).
    const leadsInHeader = async () => {
      let total = 0;
      for (const kind of LEAD_KINDS) total += (await get<{ total: number }>(`/api/admin/${kind}`)).total;
      return total;
    };

    expect(await leadsInCard()).toBe(0);
    for (const phone of [uniquePhone(), uniquePhone()]) {
      expect((await postJson(`${fresh.url}/api/quick-quotes`, quickQuote({ phone }))).status).toBe(201);
    }
    expect(await leadsInHeader()).toBe(2);
    expect(await leadsInCard()).toBe(2);
  });
});

describe('deleting requests', () => {
  it('deleting a person’s last request deletes the person, notes and history included; earlier ones leave them', async () => {
    const phone = uniquePhone();
    const first = await (await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }))).json();
    const second = await (await postJson(`${server.url}/api/quote-requests`, preFilter({ phone }))).json();
    const id = await contactOfPhone(phone);
    await api(`/api/admin/contacts/${id}/notes`, {
      method: 'POST',
      body: JSON.stringify({ body: 'Datos personales' }),
    });
    expect((await api(`/api/admin/quick-quotes/${first.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await countRows('contacts', 'id = $1', [id])).toBe(1);
    expect((await api(`/api/admin/quote-requests/${second.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await countRows('contacts', 'id = $1', [id])).toBe(0);
    expect(await countRows('contact_notes', 'contact_id = $1', [id])).toBe(0);
    expect((await api(`/api/admin/contacts/${id}`)).status).toBe(404);
  });

  it('deleting a request keeps the person who also called, wrote on WhatsApp or was typed in by the team', async () => {
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    const [called, wrote, typed] = phones as [string, string, string];
    const leads: string[] = [];
    for (const phone of phones) {
      leads.push((await (await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }))).json()).id);
    }
    await sql(`INSERT INTO voice_calls (call_id, contact_id) VALUES ($1, $2)`, [
      `call-${called}`,
      await contactOfPhone(called),
    ]);
    await sql(
      `INSERT INTO whatsapp_conversations (contact_id, last_message_at, last_direction) VALUES ($1, now(), 'in')`,
      [await contactOfPhone(wrote)],
    );
    await sql(`INSERT INTO contact_events (contact_id, kind, to_value) VALUES ($1, 'captured', 'panel')`, [
      await contactOfPhone(typed),
    ]);
    const ids = await Promise.all(phones.map(contactOfPhone));
    for (const lead of leads) {
      expect((await api(`/api/admin/quick-quotes/${lead}`, { method: 'DELETE' })).status).toBe(204);
    }
    expect(await countRows('contacts', 'id = ANY($1::uuid[])', [ids])).toBe(3);
  });
});

describe('the contact endpoints are the administrator’s', () => {
  it('401 without a session, 403 without the role, 403 cross-origin', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }));
    const id = await contactOfPhone(phone);
    const routes: [string, string][] = [
      ['GET', '/api/admin/contacts'],
      ['GET', `/api/admin/contacts/${id}`],
      ['PATCH', `/api/admin/contacts/${id}`],
      ['POST', `/api/admin/contacts/${id}/notes`],
      ['DELETE', `/api/admin/contacts/${id}/notes/${randomUUID()}`],
      ['GET', '/api/admin/contacts/export.csv'],
      ['GET', '/api/admin/metrics'],
    ];
    const hash = await bcrypt.hash('asesor-normal', 4);
    await sql(`INSERT INTO users (email, password_hash) VALUES ('asesor@ceiba.mx', $1) ON CONFLICT DO NOTHING`, [hash]);
    const userCookie = cookieOf(await login(server.url, 'asesor@ceiba.mx', 'asesor-normal'));
    for (const [method, route] of routes) {
      const body =
        method === 'GET' || method === 'DELETE'
          ? undefined
          : JSON.stringify({ state: 'contactado', version: 1, body: 'x' });
      const anonymous = await fetch(server.url + route, {
        method,
        body,
        headers: { Origin: originOf(server.url), 'Content-Type': 'application/json' },
      });
      expect(anonymous.status, `${method} ${route}`).toBe(401);
      const user = await fetch(server.url + route, {
        method,
        body,
        headers: { Cookie: userCookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
      });
      expect(user.status, `${method} ${route}`).toBe(403);
      if (method !== 'GET') {
        const crossSite = await fetch(server.url + route, {
          method,
          body,
          headers: { Cookie: cookie, Origin: 'https://otro.example', 'Content-Type': 'application/json' },
        });
        expect(crossSite.status, `${method} ${route}`).toBe(403);
      }
    }
  });
});

describe('the migration that creates contacts', () => {
  // A lead row inserted without its contact (the deploy before contacts) got one from a trigger until
  // migration 0036 dropped it; src/server/leads/batch.test.ts proves such a row is now refused.
  it('gives every existing lead a contact, one per phone, on a copy with thousands of rows', async () => {
    const url = await createDatabaseBefore(inject('pgAdminUrl'), '0004');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // 3,000 quick quotes over 1,000 phones, 2,000 pre-filters over 1,500 phones (500 shared), 500 partners.
      await client.query(`INSERT INTO cotizaciones_rapidas (name, phone, email, utm_campaign, created_at)
        SELECT 'Rápida ' || n, '+52999' || lpad((n % 1000)::text, 7, '0'), CASE WHEN n % 3 = 0 THEN 'r' || n || '@correo.mx' END,
               'c' || (n % 7), now() - n * interval '1 minute' FROM generate_series(1, 3000) n`);
      await client.query(`INSERT INTO quote_requests (source, name, phone, state, municipality, has_land, created_at)
        SELECT 'prefiltro', 'Prefiltro ' || n, '+52999' || lpad((500 + n % 1500)::text, 7, '0'), 'Yucatán', 'Mérida', 'tengo-terreno',
               now() - n * interval '2 minutes' FROM generate_series(1, 2000) n`);
      await client.query(`INSERT INTO partner_applications (name, phone, role, municipality, investment, timeline, legal_documentation, consultancy_payment, score, status, created_at)
        SELECT 'Socio ' || n, '+52888' || lpad(n::text, 7, '0'), 'otro', 'Tulum', '5m+', '0-3-meses', 'no', 'no', 5, 'rejected', now() - n * interval '3 minutes'
        FROM generate_series(1, 500) n`);
      await migrate(url);
      const count = async (query: string) => Number((await client.query(query)).rows[0].n);
      expect(await count('SELECT count(*) AS n FROM contacts')).toBe(2000 + 500);
      expect(
        await count(
          'SELECT count(DISTINCT phone) AS n FROM (SELECT phone FROM cotizaciones_rapidas UNION ALL SELECT phone FROM quote_requests UNION ALL SELECT phone FROM partner_applications) p',
        ),
      ).toBe(2500);
      for (const table of ['cotizaciones_rapidas', 'quote_requests', 'partner_applications']) {
        expect(
          await count(
            `SELECT count(*) AS n FROM ${table} l JOIN contacts c ON c.id = l.contact_id AND c.phone = l.phone`,
          ),
        ).toBe(await count(`SELECT count(*) AS n FROM ${table}`));
      }
      // A phone used by both buyer forms is one buyer; the latest name wins; the first touch is the oldest lead's.
      const shared = (
        await client.query(`SELECT name, is_buyer, is_partner, first_touch FROM contacts WHERE phone = '+529990000600'`)
      ).rows[0];
      expect(shared).toMatchObject({ is_buyer: true, is_partner: false });
      expect(shared.name).toMatch(/^(Rápida|Prefiltro) /);
      expect(await count(`SELECT count(*) AS n FROM contacts WHERE is_partner AND NOT is_buyer`)).toBe(500);
    } finally {
      await client.end();
    }
  });
});
