import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, originOf } from '../support/admin.ts';
import type { SmtpReceiver } from '../support/receivers.ts';
import type { RunningServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';
import { startVoiceSite, VOICE_SECRET, vapiFixture, vapiReport } from '../support/vapi.ts';

/** Issue #13: the voice platform's server messages, stored once per call, joined to the contact, notified. */
let server: RunningServer;
let smtp: SmtpReceiver;
let admin: string;

beforeAll(async () => {
  ({ server, smtp, admin } = await startVoiceSite());
});
afterAll(async () => {
  await smtp?.close();
});

const send = (body: unknown, headers: Record<string, string> = { 'X-Vapi-Secret': VOICE_SECRET }) =>
  fetch(`${server.url}/api/voice/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const panel = (cookie: string, pathname: string) => fetch(server.url + pathname, { headers: { Cookie: cookie } });

describe('POST /api/voice/events', () => {
  it('stores an end-of-call report with everything the team needs, joined to a new contact, and notifies', async () => {
    const answer = await send(vapiFixture('end-of-call-report'));
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { stored: boolean; id: string };
    expect(body.stored).toBe(true);

    const [call] = await sql<Record<string, unknown>>('SELECT * FROM voice_calls WHERE id = $1', [body.id]);
    expect(call).toMatchObject({
      call_id: '3f9c2b7e-8a41-4c1d-9b2e-7d6f5a4c3b21',
      duration_seconds: '195.5',
      ended_reason: 'customer-ended-call',
      summary: expect.stringMatching(/^Ana quiere el modelo Ceiba/),
      recording_url: 'https://storage.vapi.ai/3f9c2b7e-mono.wav',
      name: 'Ana López',
      phone: '+529991234567',
      interest: 'Modelo Ceiba, 2 recámaras',
      page_path: '/modelos',
      utm_source: 'facebook',
      utm_campaign: 'otono-2026',
      structured: { nombre: 'Ana López', telefono: '999 123 4567', interes: 'Modelo Ceiba, 2 recámaras' },
    });
    expect((call?.started_at as Date | undefined)?.toISOString()).toBe('2026-11-22T16:00:05.000Z');
    // The conversation as turns: the system prompt and the tool calls are left out.
    expect(call?.messages).toEqual([
      { role: 'agente', text: '¡Hola! Soy el asistente de Casas Ceiba. ¿En qué te ayudo?', seconds: 0.9 },
      { role: 'visitante', text: 'Quiero saber el precio de la casa Ceiba.', seconds: 4.9 },
      { role: 'agente', text: 'Con gusto. ¿Me compartes tu nombre y un teléfono?', seconds: 8.9 },
      { role: 'visitante', text: 'Ana López, 999 123 4567.', seconds: 12.9 },
    ]);

    const [contact] = await sql<{ id: string; name: string; first_touch: Record<string, string> }>(
      'SELECT id, name, first_touch FROM contacts WHERE phone = $1',
      ['+529991234567'],
    );
    expect(contact?.name).toBe('Ana López');
    expect(contact?.first_touch).toMatchObject({ utm_source: 'facebook', utm_campaign: 'otono-2026' });
    expect(call?.contact_id).toBe(contact?.id);

    // The contact's timeline shows the call.
    const detail = (await (await panel(admin, `/api/admin/contacts/${contact?.id}`)).json()) as {
      timeline: { type: string; id?: string; durationSeconds?: number }[];
    };
    expect(detail.timeline).toContainEqual(
      expect.objectContaining({ type: 'call', id: body.id, durationSeconds: 195.5 }),
    );

    // Notified like any lead.
    const subject = 'Nueva llamada con el agente de voz: Ana López';
    await expect.poll(() => smtp.messages.some((entry) => entry.subject === subject)).toBe(true);
    const mail = smtp.messages.find((entry) => entry.subject === subject);
    expect(mail?.text).toContain('Modelo Ceiba, 2 recámaras');
    expect(mail?.text).toContain(`/admin/llamada?id=${body.id}`);
  });

  it('is stored once however often the platform sends the same report, even at once', async () => {
    const report = vapiReport('a0a0a0a0-1111-4222-8333-444455556666', { nombre: 'Luis Pech', telefono: '9997654321' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(report)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const stored = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { stored: boolean }).stored),
    );
    expect(stored.filter(Boolean)).toHaveLength(1);
    expect(await sql(`SELECT id FROM voice_calls WHERE call_id = 'a0a0a0a0-1111-4222-8333-444455556666'`)).toHaveLength(
      1,
    );
    const deliveries = await sql(
      `SELECT d.id FROM notification_deliveries d JOIN voice_calls v ON v.id = d.lead_id
       WHERE v.call_id = 'a0a0a0a0-1111-4222-8333-444455556666'`,
    );
    expect(deliveries).toHaveLength(1);
  });

  it('joins the existing contact of the phone the visitor gave', async () => {
    const lead = await fetch(`${server.url}/api/quick-quotes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ name: 'Marta Chi', phone: '999 222 3344', origin: 'hero' }),
    });
    expect(lead.status).toBe(201);
    const [before] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', ['+529992223344']);
    // No name this time: the contact keeps hers.
    const answer = await send(vapiReport('b1b1b1b1-1111-4222-8333-444455556666', { telefono: '+52 999 222 3344' }));
    expect(answer.status).toBe(200);
    const contacts = await sql<{ id: string; name: string }>('SELECT id, name FROM contacts WHERE phone = $1', [
      '+529992223344',
    ]);
    expect(contacts).toEqual([{ id: before?.id, name: 'Marta Chi' }]);
    const [call] = await sql<{ contact_id: string }>('SELECT contact_id FROM voice_calls WHERE call_id = $1', [
      'b1b1b1b1-1111-4222-8333-444455556666',
    ]);
    expect(call?.contact_id).toBe(before?.id);
  });

  it('keeps the page and the campaign of a call whose click id does not fit, and no signed link as its landing', async () => {
    const report = vapiReport('f6f6f6f6-1111-4222-8333-444455556666', { nombre: 'Rita Couoh', telefono: '9993334455' });
    const metadata = {
      page: '/cita',
      utm_source: 'google',
      utm_campaign: 'invierno-2026',
      gclid: 'Cj0K abc',
      landing_path: '/cita?t=v1.firmado.secreto&utm_source=google',
    };
    const message = report.message as unknown as {
      assistant: { metadata: unknown };
      call: { assistantOverrides: { metadata: unknown } };
    };
    message.assistant.metadata = metadata;
    message.call.assistantOverrides.metadata = metadata;
    expect((await send(report)).status).toBe(200);
    const [call] = await sql<Record<string, unknown>>(
      `SELECT page_path, utm_source, utm_campaign, gclid, landing_path FROM voice_calls WHERE call_id = $1`,
      ['f6f6f6f6-1111-4222-8333-444455556666'],
    );
    expect(call).toEqual({
      page_path: '/cita',
      utm_source: 'google',
      utm_campaign: 'invierno-2026',
      gclid: null,
      landing_path: '/cita?utm_source=google',
    });
  });

  it('stores a report without structured data, recording or metadata, with no contact and no notification', async () => {
    const answer = await send(vapiFixture('end-of-call-report-minimal'));
    expect(answer.status).toBe(200);
    const [call] = await sql<Record<string, unknown>>(
      `SELECT contact_id, duration_seconds, recording_url, structured, phone, page_path, ended_reason
       FROM voice_calls WHERE call_id = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f'`,
    );
    expect(call).toEqual({
      contact_id: null,
      duration_seconds: '31.0',
      recording_url: null,
      structured: null,
      phone: null,
      page_path: null,
      ended_reason: 'silence-timed-out',
    });
    const id = (
      await sql<{ id: string }>(`SELECT id FROM voice_calls WHERE call_id = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f'`)
    )[0]?.id;
    expect(await sql('SELECT 1 FROM notification_deliveries WHERE lead_id = $1', [id])).toEqual([]);
  });

  it('answers 200 to the types it does not use and stores nothing', async () => {
    const before = await sql<{ count: string }>('SELECT count(*) FROM voice_calls');
    // A status update puts the call on record (voice-tools.test.ts): not one of these.
    for (const body of [
      vapiFixture('transcript'),
      { message: { type: 'conversation-update', messages: [] } },
      { message: { type: 'algo-nuevo-de-la-plataforma' } },
    ]) {
      const answer = await send(body);
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { stored: boolean }).stored).toBe(false);
    }
    expect(await sql<{ count: string }>('SELECT count(*) FROM voice_calls')).toEqual(before);
  });

  it('refuses a missing or wrong secret with 401, and takes it as a Bearer token too', async () => {
    const report = vapiReport('c2c2c2c2-1111-4222-8333-444455556666');
    const wrong: Record<string, string>[] = [
      {},
      { 'X-Vapi-Secret': 'otro-secreto-cualquiera-123' },
      { 'X-Vapi-Secret': `${VOICE_SECRET}x` },
      { Authorization: `Bearer ${VOICE_SECRET.slice(0, -1)}` },
      { Authorization: VOICE_SECRET },
    ];
    for (const headers of wrong) {
      const answer = await send(report, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(((await answer.json()) as { error: string }).error).toBe(
        'Secreto de la plataforma de voz ausente o incorrecto.',
      );
    }
    expect(await sql(`SELECT 1 FROM voice_calls WHERE call_id = 'c2c2c2c2-1111-4222-8333-444455556666'`)).toEqual([]);
    expect((await send(report, { Authorization: `Bearer ${VOICE_SECRET}` })).status).toBe(200);
  });

  it('gives malformed bodies a Spanish 4xx and stores nothing', async () => {
    const cases: [unknown, Record<string, string> | undefined, number][] = [
      ['{no es json', undefined, 400],
      [[1, 2, 3], undefined, 400],
      [{ mensaje: {} }, undefined, 400],
      [{ message: { type: 'end-of-call-report' } }, undefined, 400],
      [{ message: { type: 'end-of-call-report', call: { id: '' } } }, undefined, 400],
      [{ message: { type: 'end-of-call-report', call: { id: 'x'.repeat(101) } } }, undefined, 400],
      [{ message: { type: 7 } }, undefined, 400],
      [{ message: 'x'.repeat(2 * 1024 * 1024) }, undefined, 413],
    ];
    for (const [body, headers, status] of cases) {
      const answer = await send(body, { 'X-Vapi-Secret': VOICE_SECRET, ...headers });
      expect(answer.status).toBe(status);
      expect(((await answer.json()) as { error: string }).error).toMatch(/^[A-ZÁÉÍÓÚ¿]/);
    }
    const wrongType = await fetch(`${server.url}/api/voice/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'X-Vapi-Secret': VOICE_SECRET },
      body: 'hola',
    });
    expect(wrongType.status).toBe(415);
    expect((await fetch(`${server.url}/api/voice/events`)).status).toBe(405);
  });

  it('keeps what it can of an odd report: a non-https recording, a bad date or a huge field do not lose the call', async () => {
    const report = vapiReport('d3d3d3d3-1111-4222-8333-444455556666', {
      nombre: 'x'.repeat(500),
      telefono: 'no lo sé',
      correo: 'NO-ES-CORREO',
    });
    const artifact = report.message.artifact as Record<string, unknown>;
    artifact.recording = { mono: { combinedUrl: 'javascript:alert(1)' } };
    artifact.recordingUrl = 'http://inseguro.example/grabacion.wav';
    report.message.startedAt = 'ayer por la tarde';
    report.message.summary = 'resumen\u0000con nulo';
    (report.message.analysis as Record<string, unknown>).summary = 42;
    const answer = await send(report);
    expect(answer.status).toBe(200);
    const [call] = await sql<Record<string, unknown>>(
      `SELECT recording_url, name, phone, email, summary, contact_id FROM voice_calls
       WHERE call_id = 'd3d3d3d3-1111-4222-8333-444455556666'`,
    );
    expect(call).toEqual({
      recording_url: null,
      name: 'x'.repeat(120),
      phone: null,
      email: null,
      summary: 'resumencon nulo',
      contact_id: null,
    });
  });
});

describe('the bidirectional controls of a call (issue #38, item 6)', () => {
  it('never reach the team: the summary, transcript, turns and the name heard are shown as they were said', async () => {
    const bidi = '\u202E\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
    const report = vapiReport('f5f5f5f5-1111-4222-8333-444455556666', {
      nombre: `Rosa\u202E Ku`,
      telefono: '999 765 4300',
      interes: `Modelo ${bidi}Ceiba`,
    });
    report.message.summary = `Pidió la \u202Efdp.exe cotización${bidi}`;
    (report.message.analysis as Record<string, unknown>).summary = undefined;
    const artifact = report.message.artifact as { transcript: string; messages: { message?: string }[] };
    artifact.transcript = `AI: Hola\u2067\nUser: Hola${bidi}`;
    for (const turn of artifact.messages) if (turn.message) turn.message = `\u202E${turn.message}\u202C`;
    expect((await send(report)).status).toBe(200);
    const list = (await (await panel(admin, '/api/admin/calls')).json()) as { items: { id: string; name: string }[] };
    const call = list.items.find((item) => item.name?.startsWith('Rosa'));
    expect(call?.name).toBe('Rosa Ku');
    const detail = await (await panel(admin, `/api/admin/calls/${call?.id}`)).json();
    expect(JSON.stringify(detail)).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
    expect(detail).toMatchObject({
      summary: 'Pidió la fdp.exe cotización',
      transcript: 'AI: Hola\nUser: Hola',
      interest: 'Modelo Ceiba',
    });
  });
});

describe('the panel’s calls', () => {
  it('lists calls for the team, shows one with its conversation, and exports them (administrators only)', async () => {
    const list = await panel(admin, '/api/admin/calls');
    expect(list.status).toBe(200);
    const page = (await list.json()) as { items: { id: string; name: string | null; contactName: string | null }[] };
    expect(page.items.length).toBeGreaterThanOrEqual(4);
    const ana = page.items.find((item) => item.name === 'Ana López');
    expect(ana?.contactName).toBe('Ana López');

    const detail = (await (await panel(admin, `/api/admin/calls/${ana?.id}`)).json()) as {
      messages: unknown[];
      recordingUrl: string;
      attribution: Record<string, string>;
      deliveries: { channel: string }[];
    };
    expect(detail.messages).toHaveLength(4);
    expect(detail.recordingUrl).toBe('https://storage.vapi.ai/3f9c2b7e-mono.wav');
    expect(detail.attribution).toMatchObject({ utm_source: 'facebook' });
    expect(detail.deliveries.map((delivery) => delivery.channel)).toEqual(['email']);
    expect((await panel(admin, '/api/admin/calls/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    // A formula in what the assistant heard stays text in a spreadsheet.
    await send(vapiReport('e4e4e4e4-1111-4222-8333-444455556666', { nombre: '=HYPERLINK("http://x","clic")' }));
    const csv = await panel(admin, '/api/admin/calls/export.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="llamadas.csv"');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith('Fecha,Duración (s),Motivo de fin,Nombre,Teléfono')).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""clic"")"`);
    expect(text).toContain('El visitante colgó');
    const [logged] = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'export' ORDER BY at DESC LIMIT 1`,
    );
    expect(logged?.summary).toMatch(/^Exportó llamadas\.csv: \d+ filas$/);
  });

  it('answers 401 without a session; an adviser sees calls but cannot export them', async () => {
    for (const pathname of ['/api/admin/calls', '/api/admin/calls/export.csv']) {
      expect((await fetch(server.url + pathname)).status).toBe(401);
    }
    const invitation = await fetch(`${server.url}/api/admin/team/invitations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), Cookie: admin },
      body: JSON.stringify({ email: 'asesor.voz@ceiba.mx', role: 'asesor' }),
    });
    const token = ((await invitation.json()) as { link: string }).link.split('#')[1];
    const accepted = await fetch(`${server.url}/api/auth/invitation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ token, name: 'Raúl Dzib', password: 'asesor-de-voz-1' }),
    });
    const adviser = cookieOf(accepted);
    expect((await panel(adviser, '/api/admin/calls')).status).toBe(200);
    expect((await panel(adviser, '/api/admin/calls/export.csv')).status).toBe(403);
  });
});
