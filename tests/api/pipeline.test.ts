import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_MODELS } from '../../src/lib/admin/catalogue.ts';
import { type ContactDetail, LOST_REASON_REQUIRED, MODEL_UNKNOWN } from '../../src/lib/admin/contacts.ts';
import type { PipelineBoard, PipelineColumn, PipelineColumnPage } from '../../src/lib/admin/pipeline.ts';
import type { ContactPage } from '../../src/server/contacts/list.ts';
import { inviteAdviser, memberRequest, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #26, item 6 (decision 0041): the pipeline over real HTTP and
 * PostgreSQL: exact counts and sums per column (the model's catalogue price
 * unless overridden), what each member sees, "Cargar más" per column, a move
 * through the contact's PATCH (a lost reason required), and the refusals.
 */
let server: RunningServer;
let admin: string;
let ana: { id: string; cookie: string };
let beto: { id: string; cookie: string };
const call = memberRequest(() => server.url);
const get = async <T>(cookie: string, path: string): Promise<T> => {
  const answer = await call(cookie, path);
  expect(answer.status, path).toBe(200);
  return (await answer.json()) as T;
};
const price = (index: number) => (CATALOGUE_MODELS[index] as { price: number }).price;
const modelId = (index: number) => (CATALOGUE_MODELS[index] as { id: string }).id;

let phones = 0;
/** A contact as the team left it (written directly: the pipeline reads these columns). */
async function contact(
  name: string,
  fields: {
    state?: string;
    to?: string | null;
    model?: string | null;
    value?: number | null;
    close?: string | null;
    hoursAgo?: number;
  },
): Promise<string> {
  const state = fields.state ?? 'nuevo';
  const [row] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer, state, lost_reason, assigned_to, model_id, estimated_value_mxn,
                           expected_close_on, last_activity_at)
     VALUES ($1, $2, true, $3, $4, $5, $6, $7, $8, now() - make_interval(hours => $9)) RETURNING id`,
    [
      `+5299${String(++phones).padStart(8, '0')}`,
      name,
      state,
      state === 'cerrado_perdido' ? 'otro' : null,
      fields.to ?? null,
      fields.model ?? null,
      fields.value ?? null,
      fields.close ?? null,
      fields.hoursAgo ?? phones,
    ],
  );
  return row?.id as string;
}

const column = (board: PipelineBoard, state: string) =>
  board.columns.find((each) => each.state === state) as PipelineColumn;
const figures = (board: PipelineBoard) =>
  Object.fromEntries(board.columns.map((each) => [each.state, [each.total, each.value, each.valued]]));

let rosa: string;
beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
  ana = await inviteAdviser(server.url, admin, 'ana@ceiba.mx', 'Ana');
  beto = await inviteAdviser(server.url, admin, 'beto@ceiba.mx', 'Beto');
  rosa = await contact('Rosa Pech', {
    state: 'contactado',
    to: ana.id,
    model: modelId(0),
    close: '2026-12-15',
    hoursAgo: 0,
  });
  await contact('Luis Chan', { state: 'contactado', to: ana.id, model: modelId(4), value: 700_000 });
  await contact('Sin modelo', { state: 'contactado', to: beto.id });
  await contact('Modelo retirado', { state: 'en_seguimiento', to: beto.id, model: 'modelo-retirado' });
  await contact('Solo valor', { state: 'en_seguimiento', value: 150_000 });
  await contact('Ganado', { state: 'cerrado_ganado', to: ana.id, model: modelId(1) });
  await contact('Perdido', { state: 'cerrado_perdido', to: beto.id, model: modelId(2) });
  // Twelve new ones of Beto's: a column longer than its first page.
  for (let i = 0; i < 12; i++) await contact(`Nuevo ${i + 1}`, { to: beto.id, model: modelId(3) });
});

describe('the board', () => {
  it('counts and sums each column exactly: the override, else the model’s catalogue price; unknown models count no value', async () => {
    const board = await get<PipelineBoard>(admin, '/api/admin/pipeline');
    expect(board.columns.map((each) => each.state)).toEqual([
      'nuevo',
      'contactado',
      'en_seguimiento',
      'visita_agendada',
      'visito',
      'cerrado_ganado',
      'cerrado_perdido',
    ]);
    expect(figures(board)).toEqual({
      nuevo: [12, 12 * price(3), 12],
      contactado: [3, price(0) + 700_000, 2],
      en_seguimiento: [2, 150_000, 1],
      visita_agendada: [0, 0, 0],
      visito: [0, 0, 0],
      cerrado_ganado: [1, price(1), 1],
      cerrado_perdido: [1, price(2), 1],
    });
    const card = column(board, 'contactado').items[0];
    expect(card).toMatchObject({
      name: 'Rosa Pech',
      modelId: modelId(0),
      modelName: CATALOGUE_MODELS[0]?.name,
      estimatedValue: null,
      value: price(0),
      expectedCloseOn: '2026-12-15',
      assignedTo: { id: ana.id, name: 'Ana' },
    });
    // Latest activity first, as in Prospectos.
    expect(column(board, 'contactado').items.map((item) => item.name)).toEqual([
      'Rosa Pech',
      'Luis Chan',
      'Sin modelo',
    ]);
    expect(column(board, 'en_seguimiento').items.find((item) => item.name === 'Modelo retirado')).toMatchObject({
      modelName: null,
      value: null,
    });
  });

  it('shows a first page per column and "Cargar más" pages that column alone, to the last card', async () => {
    const board = await get<PipelineBoard>(admin, '/api/admin/pipeline');
    const fresh = column(board, 'nuevo');
    expect(fresh.items).toHaveLength(10);
    expect(fresh.nextCursor).not.toBeNull();
    const more = await get<PipelineColumnPage>(admin, `/api/admin/pipeline?state=nuevo&cursor=${fresh.nextCursor}`);
    expect(more.nextCursor).toBeNull();
    const names = [...fresh.items, ...more.items].map((item) => item.name);
    expect(new Set(names).size).toBe(12);
    expect(names[0]).toBe('Nuevo 1');
    expect(names.at(-1)).toBe('Nuevo 12');
    // A filter with a NUL (PostgreSQL refuses it): a Spanish 400, as Prospectos', not the 503 of a refused query.
    for (const query of ['source=%00', 'campaign=a%00b']) {
      const refused = await call(admin, `/api/admin/pipeline?${query}`);
      expect(refused.status, query).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain('Contiene caracteres no válidos.');
    }
  });

  it('a member sees what Prospectos shows them: everyone’s by default, their own with assigned=me, nobody’s with none', async () => {
    const everyone = await get<PipelineBoard>(ana.cookie, '/api/admin/pipeline');
    const list = await get<ContactPage>(ana.cookie, '/api/admin/contacts');
    expect(everyone.columns.reduce((sum, each) => sum + each.total, 0)).toBe(list.total);
    expect(figures(everyone)).toEqual(figures(await get<PipelineBoard>(admin, '/api/admin/pipeline')));

    const mine = await get<PipelineBoard>(ana.cookie, '/api/admin/pipeline?assigned=me');
    expect(figures(mine)).toEqual({
      nuevo: [0, 0, 0],
      contactado: [2, price(0) + 700_000, 2],
      en_seguimiento: [0, 0, 0],
      visita_agendada: [0, 0, 0],
      visito: [0, 0, 0],
      cerrado_ganado: [1, price(1), 1],
      cerrado_perdido: [0, 0, 0],
    });
    const myList = await get<ContactPage>(ana.cookie, '/api/admin/contacts?assigned=me');
    expect(mine.columns.reduce((sum, each) => sum + each.total, 0)).toBe(myList.total);
    const nobody = await get<PipelineBoard>(admin, '/api/admin/pipeline?assigned=none');
    expect(figures(nobody).en_seguimiento).toEqual([1, 150_000, 1]);
    expect(nobody.columns.flatMap((each) => each.items).map((item) => item.name)).toEqual(['Solo valor']);
    const betos = await get<PipelineBoard>(admin, `/api/admin/pipeline?assigned=${beto.id}`);
    expect(betos.columns.reduce((sum, each) => sum + each.total, 0)).toBe(15);
  });
});

describe('moving a card (PATCH /api/admin/contacts/{id}, the state change of every view)', () => {
  it('to lost needs a reason (400 in Spanish, nothing written); with one the columns, history and activity follow', async () => {
    const before = await get<ContactDetail>(ana.cookie, `/api/admin/contacts/${rosa}`);
    const refused = await call(ana.cookie, `/api/admin/contacts/${rosa}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'cerrado_perdido', version: before.version }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain(LOST_REASON_REQUIRED);
    expect((await get<ContactDetail>(ana.cookie, `/api/admin/contacts/${rosa}`)).version).toBe(before.version);

    const moved = await call(ana.cookie, `/api/admin/contacts/${rosa}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'cerrado_perdido', lostReason: 'sin_terreno', version: before.version }),
    });
    expect(moved.status).toBe(200);
    const board = await get<PipelineBoard>(admin, '/api/admin/pipeline');
    expect(figures(board).contactado).toEqual([2, 700_000, 1]);
    expect(figures(board).cerrado_perdido).toEqual([2, price(2) + price(0), 2]);
    expect(column(board, 'cerrado_perdido').items[0]).toMatchObject({ name: 'Rosa Pech', lostReason: 'sin_terreno' });
    expect(await countRows('activity_log', "kind = 'state_change' AND details ->> 'contact' = $1", [rosa])).toBe(1);
    expect(await countRows('contact_events', "kind = 'state' AND contact_id = $1", [rosa])).toBe(1);

    // A card moved on a version someone else changed since: 409, as everywhere.
    const stale = await call(ana.cookie, `/api/admin/contacts/${rosa}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'contactado', version: before.version }),
    });
    expect(stale.status).toBe(409);
  });

  it('the deal is edited where the contact is: model, value and close day, each a line of the history; bad ones 400', async () => {
    const id = await contact('Trato nuevo', { state: 'contactado', to: ana.id });
    const patch = (body: object) =>
      call(ana.cookie, `/api/admin/contacts/${id}`, { method: 'PATCH', body: JSON.stringify(body) });
    const unknown = await patch({ modelId: 'castillo', version: 1 });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).fields.modelId).toBe(MODEL_UNKNOWN);
    const negative = await patch({ estimatedValue: -5, version: 1 });
    expect(negative.status).toBe(400);
    expect((await negative.json()).fields.estimatedValue).toMatch(/^Escribe el valor estimado en pesos/);
    const badDay = await patch({ expectedCloseOn: '2026-02-30', version: 1 });
    expect(badDay.status).toBe(400);

    const saved = await patch({
      modelId: modelId(2),
      estimatedValue: 400_000,
      expectedCloseOn: '2027-01-31',
      version: 1,
    });
    expect(saved.status).toBe(200);
    const detail = (await saved.json()) as ContactDetail;
    expect(detail).toMatchObject({ modelId: modelId(2), estimatedValue: 400_000, expectedCloseOn: '2027-01-31' });
    const kinds = detail.timeline.flatMap((entry) => (entry.type === 'event' ? [entry.kind] : []));
    expect(kinds.sort()).toEqual(['estimated_value', 'expected_close', 'model']);
    const board = await get<PipelineBoard>(ana.cookie, '/api/admin/pipeline?assigned=me');
    expect(column(board, 'contactado').items.find((item) => item.id === id)).toMatchObject({ value: 400_000 });
    // Back to the catalogue's price.
    const back = await patch({ estimatedValue: null, version: detail.version });
    expect(((await back.json()) as ContactDetail).estimatedValue).toBeNull();
  });
});

describe('everyone’s sums (kept by a trigger) equal the contacts’ own, whatever changes them', () => {
  it('after inserts, moves, edits, an erasure and a value cleared', async () => {
    const direct = async () => {
      const rows = await sql<{ state: string; value: string; valued: number; n: number }>(
        `SELECT state, coalesce(sum(coalesce(estimated_value_mxn, m.price)), 0) AS value,
                count(coalesce(estimated_value_mxn, m.price))::int AS valued, count(*)::int AS n
         FROM contacts LEFT JOIN unnest($1::text[], $2::bigint[]) AS m(id, price) ON m.id = model_id GROUP BY state`,
        [CATALOGUE_MODELS.map((model) => model.id), CATALOGUE_MODELS.map((model) => model.price)],
      );
      return Object.fromEntries(rows.map((row) => [row.state, [row.n, Number(row.value), row.valued]]));
    };
    const luis = (await sql<{ id: string }>("SELECT id FROM contacts WHERE name = 'Luis Chan'"))[0]?.id as string;
    const erased = await call(admin, `/api/admin/contacts/${luis}`, { method: 'DELETE' });
    expect(erased.status).toBe(200);
    await sql("UPDATE contacts SET estimated_value_mxn = NULL, model_id = 'meridian' WHERE name = 'Solo valor'");
    await sql("UPDATE contacts SET state = 'cerrado_ganado' WHERE name = 'Nuevo 3'");
    const board = await get<PipelineBoard>(admin, '/api/admin/pipeline');
    const expected = await direct();
    for (const each of board.columns) {
      expect([each.total, each.value, each.valued], each.state).toEqual(expected[each.state] ?? [0, 0, 0]);
    }
  });
});

describe('who may, and bad input', () => {
  it('401 without a session, 403 without a role, 400 in Spanish for a bad filter or cursor', async () => {
    expect((await call(null, '/api/admin/pipeline')).status).toBe(401);
    const roleless = await inviteAdviser(server.url, admin, 'sinrol@ceiba.mx', 'Sin Rol');
    await sql('DELETE FROM user_roles WHERE user_id = $1', [roleless.id]);
    expect((await call(roleless.cookie, '/api/admin/pipeline')).status).toBe(403);
    const badState = await call(admin, '/api/admin/pipeline?state=ganado');
    expect(badState.status).toBe(400);
    expect(await badState.json()).toMatchObject({
      error: 'Revisa los filtros.',
      fields: { state: 'Estado desconocido.' },
    });
    const badAssigned = await call(admin, '/api/admin/pipeline?assigned=todos');
    expect(badAssigned.status).toBe(400);
    expect((await badAssigned.json()).error).toBe('Revisa los filtros.');
    const badCursor = await call(admin, '/api/admin/pipeline?state=nuevo&cursor=roto');
    expect(badCursor.status).toBe(400);
    expect((await badCursor.json()).error).toBe('Parámetros de paginación no válidos.');
    expect((await call(admin, '/api/admin/pipeline', { method: 'POST', body: '{}' })).status).toBe(405);
  });
});
