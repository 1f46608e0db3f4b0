import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALREADY_TAKEN, EDIT_NOT_YOURS } from '../../src/lib/admin/contact-work.ts';
import { inviteAdviser, originOf, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #26, items 4 and 5 (decision 0037), over real HTTP and PostgreSQL:
 * "Tomar" (two at once: one wins), changes from the list, a lead typed in
 * (deduplicated by phone), a contact corrected, and two contacts merged.
 */
let server: RunningServer;
let admin: string;
let invited = 0;

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
});

const call = (cookie: string, path: string, method = 'GET', body?: unknown) =>
  fetch(server.url + path, {
    method,
    headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const adviser = (name: string) => inviteAdviser(server.url, admin, `equipo${++invited}@ceiba.mx`, name);

async function newContact(
  name = 'Rosa Pech',
  phone = uniquePhone(),
  extra: Record<string, unknown> = {},
): Promise<string> {
  const answer = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name, phone, ...extra }));
  const { id } = (await answer.json()) as { id: string };
  const [row] = await sql<{ contact_id: string }>('SELECT contact_id FROM cotizaciones_rapidas WHERE id = $1', [id]);
  return row?.contact_id as string;
}

interface Detail {
  name: string;
  phone: string;
  email: string | null;
  version: number;
  requests: number;
  assignedTo: { id: string; name: string } | null;
  state: string;
  timeline: {
    type: string;
    kind?: string;
    actor?: string | null;
    from?: string | null;
    to?: string | null;
    body?: string;
  }[];
}
const detail = async (id: string, cookie = admin) =>
  (await (await call(cookie, `/api/admin/contacts/${id}`)).json()) as Detail;
const activity = (kind: string) =>
  sql<{ summary: string; details: Record<string, unknown> }>(
    'SELECT summary, details FROM activity_log WHERE kind = $1 ORDER BY at',
    [kind],
  );

describe('"Tomar"', () => {
  it('an adviser takes an unassigned lead: it is theirs, in the history and the activity log', async () => {
    const ana = await adviser('Ana Chan');
    const id = await newContact('Lucía Tomada');
    const taken = await call(ana.cookie, `/api/admin/contacts/${id}/claim`, 'POST');
    expect(taken.status).toBe(200);
    expect(((await taken.json()) as Detail).assignedTo).toEqual({ id: ana.id, name: 'Ana Chan' });
    const after = await detail(id);
    expect(after.timeline.find((entry) => entry.kind === 'claimed')).toMatchObject({
      actor: 'Ana Chan',
      to: 'Ana Chan',
    });
    expect((await activity('assignment')).map((entry) => entry.summary)).toContain('Tomó a Lucía Tomada');
    // Taken already, even by oneself: a 409 in Spanish, and who has it.
    const again = await call(ana.cookie, `/api/admin/contacts/${id}/claim`, 'POST');
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: ALREADY_TAKEN, takenBy: 'Ana Chan' });
    expect(
      (await call(ana.cookie, '/api/admin/contacts/0b9f4a1e-6c1d-4c55-9d1e-2f3a4b5c6d7e/claim', 'POST')).status,
    ).toBe(404);
    expect(
      (
        await fetch(`${server.url}/api/admin/contacts/${id}/claim`, {
          method: 'POST',
          headers: { Origin: originOf(server.url) },
        })
      ).status,
    ).toBe(401);
  });

  it('two advisers press "Tomar" at once: exactly one 200 and one 409, one owner, one history line', async () => {
    const [luis, rosa] = [await adviser('Luis May'), await adviser('Rosa Ek')];
    const id = await newContact('Pedro Disputado');
    // Both claims arrive while the row is held by a third transaction, so they truly overlap in PostgreSQL.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM contacts WHERE id = $1 FOR UPDATE', [id]);
    const answers = Promise.all([
      call(luis.cookie, `/api/admin/contacts/${id}/claim`, 'POST'),
      call(rosa.cookie, `/api/admin/contacts/${id}/claim`, 'POST'),
    ]);
    for (;;) {
      const [waiting] = await sql<{ count: string }>(
        `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE contacts SET assigned_to%'`,
      );
      if (Number(waiting?.count) === 2) break;
    }
    await holder.query('COMMIT');
    await holder.end();
    const statuses = (await answers).map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409]);
    const after = await detail(id);
    expect(['Luis May', 'Rosa Ek']).toContain(after.assignedTo?.name);
    expect(after.timeline.filter((entry) => entry.kind === 'claimed')).toHaveLength(1);
    expect(await countRows('activity_log', `details ->> 'contact' = $1`, [id])).toBe(1);
  });
});

describe('changes from the list', () => {
  it('an administrator assigns and moves several contacts: each in its history and the activity log', async () => {
    const marta = await adviser('Marta Poot');
    const ids = [await newContact('Uno Lista'), await newContact('Dos Lista'), await newContact('Tres Lista')];
    const assigned = await call(admin, '/api/admin/contacts-bulk', 'POST', { ids, assignedTo: marta.id });
    expect(assigned.status).toBe(200);
    expect(await assigned.json()).toEqual({ changed: 3, missing: 0 });
    const moved = await call(admin, '/api/admin/contacts-bulk', 'POST', {
      ids: [...ids, '0b9f4a1e-6c1d-4c55-9d1e-2f3a4b5c6d7e'],
      state: 'cerrado_perdido',
      lostReason: 'sin_presupuesto',
    });
    expect(await moved.json()).toEqual({ changed: 3, missing: 1 });
    for (const id of ids) {
      const after = await detail(id);
      expect(after.assignedTo?.name).toBe('Marta Poot');
      expect(after.state).toBe('cerrado_perdido');
      expect(after.timeline.filter((entry) => entry.type === 'event').map((entry) => entry.kind)).toEqual([
        'assigned',
        'state',
      ]);
      expect(await countRows('activity_log', `details ->> 'contact' = $1`, [id])).toBe(2);
    }
    expect((await activity('state_change')).map((entry) => entry.summary)).toContain(
      'Cambió el estado de Dos Lista a «Cerrado: perdido»',
    );
  });

  it('is refused to advisers (403) and to bad input (400 in Spanish), with nothing changed', async () => {
    const pablo = await adviser('Pablo Can');
    const id = await newContact();
    const before = await detail(id);
    expect(
      (await call(pablo.cookie, '/api/admin/contacts-bulk', 'POST', { ids: [id], state: 'contactado' })).status,
    ).toBe(403);
    const cases: [unknown, string, string][] = [
      [{ ids: [id], state: 'cerrado_perdido' }, 'lostReason', 'Elige el motivo por el que se perdió.'],
      [{ ids: [], state: 'contactado' }, 'ids', 'Elige al menos un prospecto.'],
      [{ ids: [id] }, 'state', 'Elige qué cambiar: el estado o a quién asignarlos.'],
      [{ ids: [id], state: 'ganado' }, 'state', 'Elige un estado de la lista.'],
      [{ ids: ['1; DROP TABLE contacts'], state: 'contactado' }, 'ids', 'Elige prospectos de la lista.'],
    ];
    for (const [body, field, message] of cases) {
      const refused = await call(admin, '/api/admin/contacts-bulk', 'POST', body);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { fields: Record<string, string> }).fields[field]).toBe(message);
    }
    // Someone outside the active team: the contacts changed before the refusal roll back too.
    const other = await newContact();
    const nobody = await call(admin, '/api/admin/contacts-bulk', 'POST', {
      ids: [id, other],
      state: 'contactado',
      assignedTo: '0b9f4a1e-6c1d-4c55-9d1e-2f3a4b5c6d7e',
    });
    expect(nobody.status).toBe(400);
    expect((await detail(id)).version).toBe(before.version);
    expect((await detail(other)).state).toBe('nuevo');
  });
});

describe('"Nuevo prospecto"', () => {
  it('types a lead in: a new contact, the adviser’s, captured by them with its origin and note', async () => {
    const sara = await adviser('Sara Uc');
    const created = await call(sara.cookie, '/api/admin/contacts', 'POST', {
      name: 'Jorge Llamada',
      phone: '999 321 7654',
      email: '',
      origin: 'llamada',
      note: 'Llamó preguntando por el modelo Lumo',
    });
    expect(created.status).toBe(201);
    const { id, created: isNew } = (await created.json()) as { id: string; created: boolean };
    expect(isNew).toBe(true);
    const after = await detail(id);
    expect(after).toMatchObject({ name: 'Jorge Llamada', phone: '+529993217654', email: null, requests: 0 });
    expect(after.assignedTo?.name).toBe('Sara Uc');
    expect(after.timeline.find((entry) => entry.kind === 'captured')).toMatchObject({
      actor: 'Sara Uc',
      to: 'llamada',
    });
    expect(after.timeline.find((entry) => entry.type === 'note')?.body).toBe('Llamó preguntando por el modelo Lumo');
    expect((await activity('contact_captured')).map((entry) => entry.summary)).toContain(
      'Capturó a Jorge Llamada (llamada)',
    );
  });

  it('deduplicates by phone: a form’s contact keeps its name (the typed one an alias), with the capture and the note, never a second one', async () => {
    const phone = uniquePhone();
    const id = await newContact('Carmen Forma', phone);
    const contacts = await countRows('contacts');
    const again = await call(admin, '/api/admin/contacts', 'POST', {
      name: 'Carmen Forma Dzib',
      phone: `+52 ${phone}`,
      email: 'carmen@correo.mx',
      origin: 'instagram',
      note: 'Escribió por Instagram',
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id, created: false });
    expect(await countRows('contacts')).toBe(contacts);
    const after = await detail(id);
    // The name stays the one the team knows; the typed one is an alias in the history (issue #38, item 11). So
    // does the e-mail the contact has (decision 0084): the team changes it with «Editar datos».
    expect(after).toMatchObject({ name: 'Carmen Forma', email: 'ana@example.mx', requests: 1 });
    expect(after.assignedTo).toBeNull();
    expect(after.timeline.map((entry) => (entry.type === 'event' ? entry.kind : entry.type))).toEqual([
      'request',
      'alias',
      'captured',
      'note',
    ]);
    expect(after.timeline.find((entry) => entry.kind === 'alias')).toMatchObject({
      from: 'Carmen Forma',
      to: 'Carmen Forma Dzib',
    });
  });

  it('keeps the e-mail a contact has: a later form or capture with another one leaves it, on its own request only', async () => {
    const phone = uniquePhone();
    // A quick quote without an e-mail: the capture gives the contact its first one.
    const id = await newContact('Rosa Dzul', phone, { email: undefined });
    const capture = (email: string) =>
      call(admin, '/api/admin/contacts', 'POST', { name: 'Rosa Dzul', phone, email, origin: 'llamada' });
    const captured = await capture('rosa@correo.mx');
    expect(captured.status).toBe(200);
    expect((await detail(id)).email).toBe('rosa@correo.mx');
    // Anyone may send a form with her number: her e-mail (where the panel's bookings write) is not theirs to change.
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Rosa Dzul', phone, email: 'otra.persona@correo.mx' }),
    );
    expect(lead.status).toBe(201);
    const again = await capture('tercera@correo.mx');
    expect(again.status).toBe(200);
    expect((await detail(id)).email).toBe('rosa@correo.mx');
    const [request] = await sql<{ email: string }>(
      'SELECT email FROM cotizaciones_rapidas WHERE contact_id = $1 AND email IS NOT NULL',
      [id],
    );
    expect(request?.email).toBe('otra.persona@correo.mx');
  });

  it('says what is wrong in Spanish (400) and stores nothing', async () => {
    const contacts = await countRows('contacts');
    const cases: [unknown, Record<string, string>][] = [
      [{}, { name: 'Escribe el nombre.', phone: 'Escribe el teléfono.', origin: 'Elige de dónde llegó.' }],
      [
        { name: 'Ana', phone: '12345', origin: 'llamada' },
        { phone: 'Escribe un número de 10 dígitos, por ejemplo 999 123 4567.' },
      ],
      [
        { name: 'Ana', phone: '9991234567', email: 'ana@', origin: 'tiktok' },
        { email: 'Escribe un correo válido, por ejemplo nombre@correo.com.', origin: 'Elige una opción de la lista.' },
      ],
      [{ name: 'Ana\u0000', phone: '9991234567', origin: 'visita' }, { name: 'Contiene caracteres no válidos.' }],
    ];
    for (const [body, fields] of cases) {
      const refused = await call(admin, '/api/admin/contacts', 'POST', body);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'Revisa los datos del prospecto.', fields });
    }
    expect(await countRows('contacts')).toBe(contacts);
    expect(
      (
        await fetch(`${server.url}/api/admin/contacts`, {
          method: 'POST',
          headers: { Origin: originOf(server.url), 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
  });
});

describe('corrections and merges', () => {
  it('corrects name, phone and e-mail with one history line each; a stale version is a 409', async () => {
    const id = await newContact('Beto Erróneo');
    const { version } = await detail(id);
    const phone = uniquePhone();
    const edited = await call(admin, `/api/admin/contacts/${id}/details`, 'PATCH', {
      name: 'Alberto Correcto',
      phone,
      email: 'beto@correo.mx',
      version,
    });
    expect(edited.status).toBe(200);
    const after = (await edited.json()) as Detail;
    expect(after).toMatchObject({ name: 'Alberto Correcto', phone: `+52${phone}`, email: 'beto@correo.mx' });
    const lines = after.timeline.filter((entry) => ['name', 'phone', 'email'].includes(entry.kind ?? ''));
    expect(lines.map((entry) => [entry.kind, entry.from, entry.to])).toEqual([
      ['name', 'Beto Erróneo', 'Alberto Correcto'],
      ['phone', expect.stringMatching(/^\+52/), `+52${phone}`],
      ['email', 'ana@example.mx', 'beto@correo.mx'],
    ]);
    expect((await activity('contact_edited')).map((entry) => entry.summary)).toContain(
      'Corrigió el nombre, el teléfono, el correo de Alberto Correcto',
    );
    const stale = await call(admin, `/api/admin/contacts/${id}/details`, 'PATCH', { name: 'X', phone, version });
    expect(stale.status).toBe(409);
    const bad = await call(admin, `/api/admin/contacts/${id}/details`, 'PATCH', { name: '', phone: '55', version: 9 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string> }).fields).toMatchObject({
      name: 'Escribe el nombre.',
      phone: 'Escribe un número de 10 dígitos, por ejemplo 999 123 4567.',
    });
  });

  it('an adviser corrects only contacts that are theirs or nobody’s: another’s is a 403 and nothing changes', async () => {
    const owner = await adviser('Olga Owner');
    const intruder = await adviser('Iván Intruso');
    const phone = uniquePhone();
    const id = await newContact('Carlos Canul', phone);
    expect((await call(owner.cookie, `/api/admin/contacts/${id}/claim`, 'POST')).status).toBe(200);
    const before = await detail(id);
    const events = await countRows('contact_events', 'contact_id = $1', [id]);
    for (const change of [{ phone: uniquePhone() }, { name: 'Otro Nombre' }, { email: 'otro@correo.mx' }]) {
      const refused = await call(intruder.cookie, `/api/admin/contacts/${id}/details`, 'PATCH', {
        name: before.name,
        phone: before.phone,
        email: before.email,
        version: before.version,
        ...change,
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: EDIT_NOT_YOURS });
    }
    expect(await detail(id)).toMatchObject({ name: 'Carlos Canul', phone: `+52${phone}`, version: before.version });
    expect(await countRows('contact_events', 'contact_id = $1', [id])).toBe(events);
    // The adviser who follows it, an administrator, and any adviser on a contact nobody follows may.
    const newPhone = uniquePhone();
    const own = await call(owner.cookie, `/api/admin/contacts/${id}/details`, 'PATCH', {
      name: 'Carlos Canul',
      phone: newPhone,
      version: before.version,
    });
    expect(own.status).toBe(200);
    const byAdmin = await call(admin, `/api/admin/contacts/${id}/details`, 'PATCH', {
      name: 'Carlos Canul Pérez',
      phone: newPhone,
      version: ((await own.json()) as Detail).version,
    });
    expect(byAdmin.status).toBe(200);
    const free = await newContact('Nadie Sigue');
    const unassigned = await call(intruder.cookie, `/api/admin/contacts/${free}/details`, 'PATCH', {
      name: 'Nadie Sigue Ya',
      phone: uniquePhone(),
      version: (await detail(free)).version,
    });
    expect(unassigned.status).toBe(200);
  });

  it('a phone that is another contact’s is a 409 with that contact; merging keeps both histories in one', async () => {
    const nora = await adviser('Nora Pech');
    const otherPhone = uniquePhone();
    const kept = await newContact('Elena Vieja', uniquePhone());
    const gone = await newContact('Elena Nueva', otherPhone);
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Elena Nueva', phone: otherPhone }));
    await call(admin, `/api/admin/contacts/${gone}/notes`, 'POST', { body: 'Nota del otro prospecto' });
    await call(nora.cookie, `/api/admin/contacts/${gone}/claim`, 'POST');
    await call(admin, `/api/admin/contacts/${kept}/notes`, 'POST', { body: 'Nota del que se queda' });
    const before = await detail(kept);
    const goneBefore = await detail(gone);
    expect(goneBefore.requests).toBe(2);

    const clash = await call(admin, `/api/admin/contacts/${kept}/details`, 'PATCH', {
      name: 'Elena Canché',
      phone: otherPhone,
      version: before.version,
    });
    expect(clash.status).toBe(409);
    const refusal = (await clash.json()) as { error: string; code: string; other: Record<string, unknown> };
    expect(refusal).toMatchObject({
      code: 'phone_taken',
      error: 'Ese teléfono ya es de otro prospecto. Elena Nueva lo tiene. Puedes unir los dos prospectos.',
      other: {
        id: gone,
        name: 'Elena Nueva',
        phone: `+52${otherPhone}`,
        requests: 2,
        state: 'nuevo',
        assignedTo: nora.id,
      },
    });
    expect((await detail(kept)).version).toBe(before.version);

    // An adviser may not merge someone else's contact into one of theirs.
    const pepe = await adviser('Pepe Ku');
    const refused = await call(pepe.cookie, `/api/admin/contacts/${kept}/merge`, 'POST', {
      from: gone,
      name: 'Elena Canché',
      phone: otherPhone,
      version: before.version,
    });
    expect(refused.status).toBe(403);

    const merged = await call(admin, `/api/admin/contacts/${kept}/merge`, 'POST', {
      from: gone,
      name: 'Elena Canché',
      phone: otherPhone,
      email: before.email,
      version: before.version,
    });
    expect(merged.status).toBe(200);
    const after = (await merged.json()) as Detail;
    expect(after).toMatchObject({ name: 'Elena Canché', phone: `+52${otherPhone}`, requests: 3 });
    expect(after.assignedTo?.name).toBe('Nora Pech');
    const count = (type: string, list = after.timeline) => list.filter((entry) => entry.type === type).length;
    expect(count('request')).toBe(count('request', before.timeline) + count('request', goneBefore.timeline));
    expect(count('note')).toBe(2);
    expect(count('event')).toBe(count('event', before.timeline) + count('event', goneBefore.timeline) + 3);
    expect(after.timeline.find((entry) => entry.kind === 'merged')).toMatchObject({
      actor: 'admin@ceiba.mx',
      from: 'Elena Nueva',
      to: `+52${otherPhone}`,
    });
    expect(await countRows('contacts', 'id = $1', [gone])).toBe(0);
    expect(await countRows('cotizaciones_rapidas', 'contact_id = $1', [kept])).toBe(3);
    expect(await countRows('notification_deliveries', 'contact_id = $1', [gone])).toBe(0);
    expect((await activity('contacts_merged')).map((entry) => entry.summary)).toEqual([
      'Unió a Elena Nueva con Elena Canché',
    ]);
    // The one it was: 404 now, and merging it again says so.
    expect((await call(admin, `/api/admin/contacts/${gone}`)).status).toBe(404);
    const twice = await call(admin, `/api/admin/contacts/${kept}/merge`, 'POST', {
      from: gone,
      name: 'Elena Canché',
      phone: otherPhone,
      version: after.version,
    });
    expect(twice.status).toBe(404);
  });

  it('a merge whose activity entry fails leaves both contacts as they were (one transaction)', async () => {
    const a = await newContact('Iris Uno');
    const phoneB = uniquePhone();
    const b = await newContact('Iris Dos', phoneB);
    const { version } = await detail(a);
    await sql(`CREATE OR REPLACE FUNCTION refuse_merge() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.kind = 'contacts_merged' THEN RAISE EXCEPTION 'refused (test)'; END IF; RETURN NEW; END $$`);
    await sql('CREATE TRIGGER refuse_merge BEFORE INSERT ON activity_log FOR EACH ROW EXECUTE FUNCTION refuse_merge()');
    try {
      const failed = await call(admin, `/api/admin/contacts/${a}/merge`, 'POST', {
        from: b,
        name: 'Iris',
        phone: phoneB,
        version,
      });
      expect(failed.status).toBe(503);
    } finally {
      await sql('DROP TRIGGER refuse_merge ON activity_log');
    }
    expect(await countRows('contacts', 'id = ANY($1::uuid[])', [[a, b]])).toBe(2);
    expect(await countRows('cotizaciones_rapidas', 'contact_id = $1', [b])).toBe(1);
    expect((await detail(a)).version).toBe(version);
  });

  it('erasing a merged and corrected contact (ARCO) leaves none of its names in the activity log', async () => {
    const phoneB = uniquePhone();
    const a = await newContact('Zulema Primera');
    const b = await newContact('Zoila Unida', phoneB);
    await call(admin, '/api/admin/contacts-bulk', 'POST', { ids: [b], state: 'contactado' });
    const { version } = await detail(a);
    const merged = await call(admin, `/api/admin/contacts/${a}/merge`, 'POST', {
      from: b,
      name: 'Zulema Corregida',
      phone: phoneB,
      version,
    });
    expect(merged.status).toBe(200);
    expect((await call(admin, `/api/admin/contacts/${a}`, 'DELETE')).status).toBe(200);
    const left = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE summary ~ '(Zulema|Zoila)' AND kind <> 'person_erased'`,
    );
    expect(left).toEqual([]);
  });
});
