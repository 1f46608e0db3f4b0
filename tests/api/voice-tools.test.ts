import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMemberGiving } from '../support/advisers.ts';
import type { SmtpReceiver } from '../support/receivers.ts';
import type { RunningServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';
import { startVoiceSite, VOICE_SECRET, vapiReport } from '../support/vapi.ts';
import { type FakePlatform, startFakePlatform, whatsappEnv } from '../support/whatsapp-platform.ts';

/**
 * Issue #42: the agent's tools during a call, through /api/voice/events, as
 * the platform sends them (its `tool-calls` message: `toolCallList` of
 * `{id, type: 'function', function: {name, arguments}}`, answered
 * `{results: [{toolCallId, name, result}]}`), then the call's end-of-call report.
 */
let server: RunningServer;
let smtp: SmtpReceiver;
let admin: string;
let whatsapp: FakePlatform;

const VISIT = 'visita-casa-muestra';
const MERIDA = 'casa-muestra-merida';

beforeAll(async () => {
  whatsapp = await startFakePlatform();
  ({ server, smtp, admin } = await startVoiceSite({ ...whatsappEnv(whatsapp), SITE_URL: 'https://www.ceibacasas.mx' }));
  await seedMemberGiving(sql, VISIT, 'Rosa Chan');
});
afterAll(async () => {
  await Promise.all([smtp?.close(), whatsapp?.close()]);
});

const post = (body: unknown, headers: Record<string, string> = { Authorization: `Bearer ${VOICE_SECRET}` }) =>
  fetch(`${server.url}/api/voice/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The call's part of every message: a web call started from /modelos with a campaign's attribution. */
const callOf = (callId: string) => ({
  call: {
    id: callId,
    type: 'webCall',
    assistantOverrides: { metadata: { page: '/modelos', utm_source: 'facebook', utm_campaign: 'voz-2026' } },
  },
  assistant: { name: 'Ceiba - agente de voz', metadata: { definition: 'abc' } },
});

/** One `tool-calls` message; arguments as an object (the docs' examples) or as JSON text (the schema's type). */
function toolCalls(callId: string, calls: { id?: string; name: string; arguments: unknown }[]) {
  const list = calls.map((call) => ({
    id: call.id ?? `call_${randomUUID().slice(0, 12)}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    message: {
      type: 'tool-calls',
      timestamp: Date.now(),
      toolCallList: list,
      toolWithToolCallList: list.map((toolCall) => ({
        type: 'function',
        function: { name: toolCall.function.name },
        toolCall,
      })),
      ...callOf(callId),
    },
  };
}

async function tool(callId: string, name: string, args: unknown, id?: string): Promise<string> {
  const answer = await post(toolCalls(callId, [{ id, name, arguments: args }]));
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as {
    results: { toolCallId: string; name: string; result?: string; error?: string }[];
  };
  expect(body.results).toHaveLength(1);
  expect(body.results[0]?.name).toBe(name);
  // A tool that failed answers `error`: the server's log says why.
  expect(
    body.results[0],
    server
      .output()
      .split('\n')
      .filter((line) => line.includes('"error"'))
      .join('\n'),
  ).toHaveProperty('result');
  // The platform reads single-line strings aloud.
  expect(body.results[0]?.result).not.toMatch(/\n/);
  return body.results[0]?.result ?? '';
}

const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

describe('the voice agent’s tools during a call', () => {
  it('a scripted call: models found, the person stored, a visit booked, the models sent; then the report joins all of it', async () => {
    const callId = randomUUID();
    const phone = uniquePhone();
    expect((await post({ message: { type: 'status-update', status: 'in-progress', ...callOf(callId) } })).status).toBe(
      200,
    );

    const models = await tool(callId, 'buscar_modelos', { presupuesto_mxn: 400000, personas: 2, tiene_terreno: false });
    expect(models).toContain('Salvia Glamping, 12 m² para 2 personas, desde $229,000 MXN, entrega de 4 a 6 semanas');
    expect(models).toContain('[lumo]');
    expect(models).not.toContain('Sand Plus');
    expect(models).toContain('un asesor te orienta para elegirlo');

    // Arguments as JSON text, as the platform's schema types them.
    const saved = await tool(
      callId,
      'guardar_prospecto',
      JSON.stringify({
        nombre: 'Lucía Pech',
        telefono: `${phone.slice(0, 3)} ${phone.slice(3)}`,
        interes: 'Lumo para rentar',
      }),
    );
    expect(saved).toBe('Listo, Lucía: ya tengo tus datos. Un asesor te escribirá por WhatsApp para darte seguimiento.');
    // The lead exists while the buyer is still talking: a dropped call loses nothing.
    const [stored] = await sql<{ contact_id: string; name: string; interest: string; utm_campaign: string }>(
      'SELECT contact_id, name, interest, utm_campaign FROM voice_calls WHERE call_id = $1',
      [callId],
    );
    expect(stored).toMatchObject({ name: 'Lucía Pech', interest: 'Lumo para rentar', utm_campaign: 'voz-2026' });
    await smtp.waitForMail((mail) => mail.subject === 'Nueva llamada con el agente de voz: Lucía Pech');

    const offered = await tool(callId, 'horarios_disponibles', { tipo: VISIT });
    expect(offered).toMatch(/^Horarios libres para Visita a la casa muestra en Casa muestra Mérida, hora de Mérida: /);
    const [, date, time] = /\[(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})\]/.exec(offered) ?? [];
    expect(date).toBeDefined();

    const booked = await tool(callId, 'agendar_visita', { tipo: VISIT, lugar: MERIDA, fecha: date, hora: time });
    expect(booked).toMatch(
      /^Listo, Lucía: quedó agendada tu visita a la casa muestra el .+ a las \d{2}:\d{2}, hora de Mérida, en Casa muestra Mérida\. Te llega la confirmación por WhatsApp/,
    );

    const sent = await tool(callId, 'enviar_whatsapp', { modelos: ['lumo', 'salvia-glamping'] });
    expect(sent).toBe('Listo: te envié por WhatsApp los modelos, con el enlace para verlos con fotos.');
    // Once per call and number a day: asking again sends nothing.
    expect(await tool(callId, 'enviar_whatsapp', { modelos: ['lumo'] })).toBe(
      'Ya te enviamos los modelos por WhatsApp en esta llamada.',
    );

    expect(
      (
        await post({
          message: { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call', ...callOf(callId) },
        })
      ).status,
    ).toBe(200);
    const report = vapiReport(callId, { nombre: 'Lucía P.', telefono: phone, interes: 'otra cosa' });
    const reported = await post(report);
    expect(reported.status).toBe(200);
    expect(((await reported.json()) as { stored: boolean }).stored).toBe(true);

    // One contact, one lead (the call, notified once), one appointment, one call.
    const contacts = await sql<{ id: string; name: string }>('SELECT id, name FROM contacts WHERE phone = $1', [
      `+52${phone}`,
    ]);
    expect(contacts).toHaveLength(1);
    const contact = contacts[0]?.id;
    expect(contacts[0]?.name).toBe('Lucía Pech');
    const calls = await sql<{
      id: string;
      contact_id: string;
      name: string;
      interest: string;
      reported_at: Date | null;
    }>('SELECT id, contact_id, name, interest, reported_at FROM voice_calls WHERE call_id = $1', [callId]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ contact_id: contact, name: 'Lucía Pech', interest: 'Lumo para rentar' });
    expect(calls[0]?.reported_at).not.toBeNull();
    expect(await countRows('notification_deliveries', 'lead_id = $1', [calls[0]?.id])).toBe(1);
    const appointments = await sql<{ source: string; status: string; kind: string }>(
      'SELECT source, status, kind FROM appointments WHERE contact_id = $1',
      [contact],
    );
    expect(appointments).toEqual([{ source: 'voz', status: 'confirmada', kind: VISIT }]);

    // The confirmation of the visit and the models reach the number the caller gave, on WhatsApp.
    const templatesTo = () =>
      whatsapp.sent
        .filter((request) => request.to === `52${phone}`)
        .map((request) => (request.body.template as { name: string }).name);
    await until(() => templatesTo().length >= 2, 'both WhatsApp templates');
    expect(templatesTo().sort()).toEqual(['cita_confirmada', 'modelos_de_llamada']);
    const modelsMessage = whatsapp.sent.find(
      (request) =>
        request.to === `52${phone}` && (request.body.template as { name: string }).name === 'modelos_de_llamada',
    );
    const template = modelsMessage?.body.template as { components: { parameters: { text: string }[] }[] } | undefined;
    const parameters = template?.components[0]?.parameters.map((parameter) => parameter.text);
    expect(parameters).toEqual([
      'Lucía',
      'Lumo (desde $349,000 MXN), Salvia Glamping (desde $229,000 MXN)',
      'https://www.ceibacasas.mx/modelos',
    ]);

    // The contact's history, in order: the call as it ran, what the agent did, the booking, the call.
    const detail = (await (
      await fetch(`${server.url}/api/admin/contacts/${contact}`, { headers: { Cookie: admin } })
    ).json()) as { timeline: { type: string; kind?: string; to?: string; detail?: string }[] };
    const lines = detail.timeline
      .filter((entry) => entry.type === 'call' || entry.kind?.startsWith('voice') || entry.kind === 'appointment')
      .map((entry) => (entry.type === 'call' ? 'call' : `${entry.kind}:${entry.to}`));
    // The call's row was made by its first message: its entry opens what happened during it.
    expect(lines).toEqual([
      'call',
      'voice_status:in-progress',
      'voice_tool:buscar_modelos',
      'voice_tool:guardar_prospecto',
      'voice_tool:horarios_disponibles',
      // Written inside the booking, before the tool's answer is.
      'appointment:confirmada',
      'voice_tool:agendar_visita',
      'voice_tool:enviar_whatsapp',
      'voice_tool:enviar_whatsapp',
      'voice_status:ended',
    ]);
    const bookingLine = detail.timeline.find((entry) => entry.to === 'agendar_visita');
    // What the agent read aloud, without what was between brackets for itself.
    expect(bookingLine?.detail).toMatch(/^Listo, Lucía: quedó agendada/);
    expect(detail.timeline.find((entry) => entry.to === 'buscar_modelos')?.detail).not.toContain('[');
  });

  it('runs a toolCallId once however often it comes, even at once: one booking, one answer', async () => {
    const callId = randomUUID();
    const phone = uniquePhone();
    await tool(callId, 'guardar_prospecto', { nombre: 'Mario Ek', telefono: phone });
    const offered = await tool(callId, 'horarios_disponibles', { tipo: VISIT, lugar: MERIDA });
    const [, date, time] = /\[(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})\][^[]*$/.exec(offered) ?? [];
    const args = { tipo: VISIT, lugar: MERIDA, fecha: date, hora: time };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => tool(callId, 'agendar_visita', args, 'call_same')),
    );
    const again = await tool(callId, 'agendar_visita', args, 'call_same');
    expect(new Set([...answers, again]).size).toBe(1);
    expect(again).toMatch(/^Listo, Mario: quedó agendada/);
    expect(
      await countRows('appointments', 'contact_id = (SELECT id FROM contacts WHERE phone = $1)', [`+52${phone}`]),
    ).toBe(1);
    expect(await countRows('voice_call_events', 'tool_call_id = $1', ['call_same'])).toBe(1);
    // The agent asks again for the same time under another tool call (a retry after a timeout): the same visit,
    // even with the name heard otherwise.
    expect(await tool(callId, 'agendar_visita', args, 'call_retry')).toBe(again);
    expect(await tool(callId, 'agendar_visita', { ...args, nombre: 'Mário Ek' }, 'call_retry_2')).toMatch(
      /^Listo, Mário: quedó agendada/,
    );
    expect(
      await countRows('appointments', 'contact_id = (SELECT id FROM contacts WHERE phone = $1)', [`+52${phone}`]),
    ).toBe(1);

    // Another caller asks for the same slot: it is taken, and the agent gets the next free ones to offer.
    const other = randomUUID();
    const taken = await tool(other, 'agendar_visita', { ...args, nombre: 'Carla Uc', telefono: uniquePhone() });
    expect(taken).toMatch(/^Ese horario ya no está libre\. Horarios libres para Visita a la casa muestra/);
    expect(
      await countRows(
        'appointments',
        `source = 'voz' AND starts_at = (SELECT starts_at FROM appointments WHERE starts_with(idempotency_key, 'voz:${callId}:'))`,
      ),
    ).toBe(1);
  });

  it('books at most two appointments in one call, whoever they are for; a third is refused in words the agent can say', async () => {
    const callId = randomUUID();
    /** The last free time the agent is offered now. */
    const lastOffered = async () => {
      const offered = await tool(callId, 'horarios_disponibles', { tipo: VISIT, lugar: MERIDA });
      const [, fecha, hora] = /\[(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})\][^[]*$/.exec(offered) ?? [];
      return { fecha, hora };
    };
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    const answers: string[] = [];
    for (const [index, phone] of phones.entries()) {
      answers.push(
        await tool(callId, 'agendar_visita', {
          tipo: VISIT,
          lugar: MERIDA,
          ...(await lastOffered()),
          nombre: ['Mario Chan', 'Luis Chan', 'Ana Chan'][index],
          telefono: phone,
        }),
      );
    }
    expect(answers[0]).toMatch(/^Listo, Mario: quedó agendada/);
    expect(answers[1]).toMatch(/^Listo, Luis: quedó agendada/);
    expect(answers[2]).toBe(
      'En esta llamada ya agendé 2 citas, así que no puedo agendar otra por aquí. Si necesitas otra, escríbenos por WhatsApp y un asesor te ayuda.',
    );
    expect(
      await countRows('appointments', 'contact_id = (SELECT id FROM contacts WHERE phone = $1)', [`+52${phones[2]}`]),
    ).toBe(0);
  });

  it('answers each tool on its own: a visit booked is said even when its line is refused, a tool that fails takes no other’s answer', async () => {
    const callId = randomUUID();
    const phone = uniquePhone();
    await tool(callId, 'guardar_prospecto', { nombre: 'Julia Pech', telefono: phone });
    const offered = await tool(callId, 'horarios_disponibles', { tipo: VISIT, lugar: MERIDA });
    const [, date, time] = /\[(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})\][^[]*$/.exec(offered) ?? [];
    // The call's history refuses the tools' lines while the trigger stands.
    await sql(`CREATE FUNCTION refuse_tool_line() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN IF NEW.kind = 'tool' THEN RAISE EXCEPTION 'tool line refused (test)'; END IF; RETURN NEW; END $$`);
    await sql(`CREATE TRIGGER refuse_tool_line BEFORE INSERT ON voice_call_events
               FOR EACH ROW EXECUTE FUNCTION refuse_tool_line()`);
    try {
      // Told it failed, the agent would book again under another id.
      const booked = await tool(callId, 'agendar_visita', { tipo: VISIT, lugar: MERIDA, fecha: date, hora: time });
      expect(booked).toMatch(/^Listo, Julia: quedó agendada/);
    } finally {
      await sql('DROP TRIGGER refuse_tool_line ON voice_call_events');
      await sql('DROP FUNCTION refuse_tool_line()');
    }
    expect(
      await countRows('appointments', 'contact_id = (SELECT id FROM contacts WHERE phone = $1)', [`+52${phone}`]),
    ).toBe(1);

    // Two tools in one message, the second failing (no contact can be stored): the first keeps its answer.
    await sql(`CREATE FUNCTION refuse_contact() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'contacts refused (test)'; END $$`);
    await sql('CREATE TRIGGER refuse_contact BEFORE INSERT ON contacts FOR EACH ROW EXECUTE FUNCTION refuse_contact()');
    let answer: Response;
    try {
      answer = await post(
        toolCalls(randomUUID(), [
          { name: 'buscar_modelos', arguments: { presupuesto_mxn: 400000, personas: 2, tiene_terreno: false } },
          { name: 'guardar_prospecto', arguments: { nombre: 'Raúl Can', telefono: uniquePhone() } },
        ]),
      );
    } finally {
      await sql('DROP TRIGGER refuse_contact ON contacts');
      await sql('DROP FUNCTION refuse_contact()');
    }
    expect(answer.status).toBe(200);
    const { results } = (await answer.json()) as { results: { name: string; result?: string; error?: string }[] };
    expect(results.map((entry) => [entry.name, entry.result === undefined ? 'error' : 'result'])).toEqual([
      ['buscar_modelos', 'result'],
      ['guardar_prospecto', 'error'],
    ]);
    expect(results[1]?.error).toMatch(/^En este momento no pude hacerlo por una falla de nuestro sistema/);
  });

  it('follows the number the person gave last: a corrected phone moves the call, its lead and its e-mail to that contact', async () => {
    const callId = randomUUID();
    const [misheard, right] = [uniquePhone(), uniquePhone()];
    const told = (mail: ParsedMail) => mail.subject === 'Nueva llamada con el agente de voz: Ana Kú';
    await tool(callId, 'guardar_prospecto', { nombre: 'Ana Kú', telefono: misheard });
    await smtp.waitForMail(told);
    expect(await tool(callId, 'guardar_prospecto', { nombre: 'Ana Kú', telefono: right })).toMatch(/^Listo, Ana/);
    const [call] = await sql<{ phone: string; contact_id: string; contact_phone: string }>(
      `SELECT v.phone, v.contact_id, c.phone AS contact_phone FROM voice_calls v JOIN contacts c ON c.id = v.contact_id
       WHERE v.call_id = $1`,
      [callId],
    );
    expect(call).toMatchObject({ phone: `+52${right}`, contact_phone: `+52${right}` });
    // The contact the misheard number made had nothing else: it goes.
    expect(await countRows('contacts', 'phone = $1', [`+52${misheard}`])).toBe(0);
    // The team is told again, with the right number.
    await smtp.waitForMail((mail) => told(mail) && String(mail.html).includes(`tel:+52${right}`));
    // A visit booked afterwards without repeating the number is theirs.
    const offered = await tool(callId, 'horarios_disponibles', { tipo: VISIT, lugar: MERIDA });
    const [, fecha, hora] = /\[(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})\][^[]*$/.exec(offered) ?? [];
    expect(await tool(callId, 'agendar_visita', { tipo: VISIT, lugar: MERIDA, fecha, hora })).toMatch(/^Listo, Ana/);
    expect(await countRows('appointments', 'contact_id = $1', [call?.contact_id])).toBe(1);
  });

  it('answers a tool call id within its own call: another call that reuses the id gets its own answer and lead', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    const [carla, diego] = [uniquePhone(), uniquePhone()];
    expect(await tool(first, 'guardar_prospecto', { nombre: 'Carla Uc', telefono: carla }, 'call_0')).toMatch(
      /^Listo, Carla/,
    );
    expect(await tool(second, 'guardar_prospecto', { nombre: 'Diego Ku', telefono: diego }, 'call_0')).toMatch(
      /^Listo, Diego/,
    );
    expect(await countRows('voice_calls', `call_id = $1 AND phone = $2`, [second, `+52${diego}`])).toBe(1);
  });

  it('takes an optional argument sent empty or null as not given, as a form does: the lead is stored', async () => {
    const callId = randomUUID();
    const phone = uniquePhone();
    expect(
      await tool(callId, 'guardar_prospecto', { nombre: 'Luis Chan', telefono: phone, correo: '', interes: null }),
    ).toMatch(/^Listo, Luis: ya tengo tus datos/);
    expect(await tool(callId, 'buscar_modelos', { presupuesto_mxn: null, personas: 3, niveles: '' })).not.toMatch(
      /^No pude hacerlo/,
    );
    const [stored] = await sql<{ email: string | null; interest: string | null }>(
      'SELECT email, interest FROM voice_calls WHERE call_id = $1 AND contact_id IS NOT NULL',
      [callId],
    );
    expect(stored).toEqual({ email: null, interest: null });
  });

  it('answers arguments that do not fit, or a tool it does not know, in words the agent can use, and does nothing', async () => {
    const callId = randomUUID();
    const before = await countRows('contacts');
    expect(await tool(callId, 'guardar_prospecto', { nombre: 'Ana' })).toBe(
      'No pude hacerlo: Falta el número de WhatsApp. [telefono]',
    );
    expect(await tool(callId, 'guardar_prospecto', { nombre: 'Ana Poot', telefono: '12345' })).toBe(
      'No pude hacerlo: Falta el número de WhatsApp. [telefono]',
    );
    expect(await tool(callId, 'guardar_prospecto', { nombre: 'Ana Poot', telefono: '123 456 7890' })).toBe(
      'Ese número no parece válido. ¿Me lo repites con los 10 dígitos de tu WhatsApp?',
    );
    expect(
      await tool(callId, 'agendar_visita', { tipo: 'cena-de-gala', lugar: MERIDA, fecha: '2027-01-04', hora: '10:00' }),
    ).toMatch(/^No pude hacerlo: Falta el tipo de cita/);
    expect(
      await tool(callId, 'agendar_visita', { tipo: VISIT, lugar: MERIDA, fecha: '2027-01-04', hora: '10:00' }),
    ).toBe('Antes de agendar necesito tu nombre y tu número de WhatsApp.');
    expect(await tool(callId, 'enviar_whatsapp', { modelos: ['lumo'] })).toBe(
      'Antes de enviarte los modelos necesito tu nombre y tu número de WhatsApp.',
    );
    expect(await tool(callId, 'borrar_todo', {})).toBe('No conozco la herramienta borrar_todo.');
    expect(await tool(callId, 'guardar_prospecto', { nombre: '', telefono: '9991234567' })).toBe(
      'No pude hacerlo: Falta el nombre de la persona. [nombre]',
    );
    expect(await countRows('contacts')).toBe(before);
    expect(await countRows('voice_calls', 'call_id = $1 AND contact_id IS NULL', [callId])).toBe(1);
  });

  it('sends no WhatsApp to a number that asked for none', async () => {
    const callId = randomUUID();
    const phone = uniquePhone();
    await tool(callId, 'guardar_prospecto', { nombre: 'Inés May', telefono: phone });
    await sql(
      `INSERT INTO whatsapp_conversations (contact_id, opted_out_at, last_message_at, last_direction)
       SELECT id, now(), now(), 'in' FROM contacts WHERE phone = $1`,
      [`+52${phone}`],
    );
    // Said as for any number that cannot get them now: a caller giving someone else's learns nothing of theirs.
    expect(await tool(callId, 'enviar_whatsapp', { modelos: ['lumo'] })).toBe(
      'Por ahora no puedo enviarte los modelos desde la llamada; un asesor te dará seguimiento.',
    );
    expect(
      await countRows('whatsapp_messages', 'contact_id = (SELECT id FROM contacts WHERE phone = $1)', [`+52${phone}`]),
    ).toBe(0);
  });

  it('refuses a message without the platform’s secret with 401 and stores nothing', async () => {
    const callId = randomUUID();
    const body = toolCalls(callId, [
      { name: 'guardar_prospecto', arguments: { nombre: 'Eva Pat', telefono: uniquePhone() } },
    ]);
    for (const headers of [
      {},
      { Authorization: 'Bearer otro-secreto-cualquiera' },
      { 'X-Vapi-Secret': 'no-es-el-secreto' },
    ] as Record<string, string>[]) {
      const answer = await post(body, headers);
      expect(answer.status).toBe(401);
    }
    const status = await post({ message: { type: 'status-update', status: 'in-progress', ...callOf(callId) } }, {});
    expect(status.status).toBe(401);
    expect(await countRows('voice_calls', 'call_id = $1', [callId])).toBe(0);
    expect(await countRows('voice_call_events', 'call_id = $1', [callId])).toBe(0);
  });

  it('keeps each status of a call once, and refuses a live message without its call', async () => {
    const callId = randomUUID();
    const status = (value: string) => post({ message: { type: 'status-update', status: value, ...callOf(callId) } });
    for (const value of ['ringing', 'in-progress', 'in-progress', 'ended'])
      expect((await status(value)).status).toBe(200);
    const lines = await sql<{ name: string }>(
      `SELECT name FROM voice_call_events WHERE call_id = $1 ORDER BY created_at, id`,
      [callId],
    );
    expect(lines.map((line) => line.name)).toEqual(['ringing', 'in-progress', 'ended']);
    const [call] = await sql<{ status: string; page_path: string }>(
      'SELECT status, page_path FROM voice_calls WHERE call_id = $1',
      [callId],
    );
    expect(call).toEqual({ status: 'ended', page_path: '/modelos' });

    expect((await post({ message: { type: 'tool-calls', toolCallList: [] } })).status).toBe(400);
    expect((await post({ message: { type: 'status-update', status: 'ended' } })).status).toBe(400);
  });
});
