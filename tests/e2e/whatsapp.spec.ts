import type { Page } from '@playwright/test';
import {
  type FakePlatform,
  inboundPayload,
  postWebhook,
  startFakePlatform,
  statusPayload,
} from '../support/whatsapp-platform.ts';
import { signInAsNewMember } from './admins.ts';
import { accessibilityViolations, expect, picture, test, toast, uniqueName, uniquePersonName } from './fixtures.ts';
import { E2E_PORT, E2E_WHATSAPP } from './playwright.config.ts';

/**
 * Issue #27, the adviser's story on a phone (390 px): a WhatsApp message
 * arrives (the platform's signed webhook), the badge on the panel's
 * navigation rises without a reload, the adviser opens the conversation,
 * answers with a quick reply, and the ticks go to "Leído" as the platform's
 * statuses arrive; once the 24-hour window has closed the composer offers
 * only templates, and says why. The conversation and the contact's history
 * are one stream: a note written between two messages sits between them.
 * Axe at 390 and 1280 px on both views.
 */
const SERVER = `http://127.0.0.1:${E2E_PORT}`;
let platform: FakePlatform;

// The fake listens on the one port the e2e server was given: only in the project that runs the story.
test.beforeAll(async () => {
  if (test.info().project.name === 'desktop') platform = await startFakePlatform({ port: E2E_WHATSAPP.port });
});
test.afterAll(async () => {
  await platform?.close();
});
// One worker runs this file's stories in turn: the fake takes the one port, and two workers would both bind it.
test.describe.configure({ mode: 'default', timeout: 120_000 });

async function adviser(page: Page, sql: <R>(text: string, values?: unknown[]) => Promise<R[]>) {
  await signInAsNewMember(page, sql, { role: 'asesor', name: 'Nadia Poot' });
}

/** The contact the webhook's message from `from` (WhatsApp id) was stored with, once the queue processed it. */
async function contactWhoWrote(sql: <R>(text: string, values?: unknown[]) => Promise<R[]>, from: string) {
  let contactId = '';
  await expect
    .poll(async () => {
      const [row] = await sql<{ id: string }>(
        `SELECT contact_id AS id FROM whatsapp_messages WHERE raw ->> 'from' = $1`,
        [from],
      );
      contactId = row?.id ?? '';
      return contactId;
    })
    .not.toBe('');
  return contactId;
}

/** Axe (WCAG 2.2 AA) at `width`, and a look at it (the screenshot beside the test's results). */
async function axeAt(page: Page, width: number, name: string, path: (name: string) => string) {
  await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: path(`${name}-${width}.png`) });
}

test('a message raises the badge, the adviser answers with a quick reply, the ticks reach “Leído”; later only templates', async ({
  page,
  sql,
}, info) => {
  // In 'desktop' with a phone's viewport, as contacts-work does: one fake per run, and late in the run, after
  // the administrator's story (which starts from no users) is done.
  test.skip(info.project.name !== 'desktop', 'one story per run');
  await page.setViewportSize({ width: 390, height: 844 });
  await adviser(page, sql);
  const title = uniqueName('Saludo');
  await sql(
    `INSERT INTO whatsapp_quick_replies (title, body) VALUES ($1, 'Hola {nombre}, soy {asesor} de Ceiba. ¿Te llamo hoy?')`,
    [title],
  );
  const before = (await (await page.request.get('/api/admin/whatsapp/unread')).json()) as { messages: number };

  await page.goto('/admin?vista=conversaciones');
  await expect(page.getByRole('heading', { name: 'Conversaciones' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Vistas del panel' });

  // Their message, with marked-up text: the panel shows it as text.
  const name = uniquePersonName('Wendy Chi');
  const from = `52199${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const markup = '<script>window.pwned = true</script><b>Hola</b>, me interesa la casa';
  const answer = await postWebhook(SERVER, inboundPayload({ from, name, content: { body: markup } }));
  expect(answer.status).toBe(200);

  // The badge rises without a reload (polled every 15 s).
  await expect(nav.getByTestId('unread-badge')).toHaveText(new RegExp(`^${before.messages + 1}\\b`), {
    timeout: 30_000,
  });
  const card = page.getByRole('link', { name: new RegExp(name) });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toContainText('<b>Hola</b>');
  const shot = (file: string) => info.outputPath(file);
  await axeAt(page, 1280, 'conversaciones', shot);
  await axeAt(page, 390, 'conversaciones', shot);
  // With the badge shown, the smallest phone still does not scroll sideways: the badge's words for a screen
  // reader stay inside the row of views that scrolls (they once widened the page to 521 px).
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(nav.getByTestId('unread-badge')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Open it: the bubble, as text; read for the team.
  const read = page.waitForResponse((response) => response.url().endsWith('/whatsapp/read'));
  await card.click();
  expect((await read).status()).toBe(204);
  const conversation = page.getByRole('log', { name: `Conversación e historial de ${name}` });
  await expect(conversation.getByText(markup)).toBeVisible();
  expect(await page.evaluate(() => (window as Window & { pwned?: boolean }).pwned)).toBeUndefined();

  // A note before answering: the history and the conversation are one stream.
  const note = 'Pregunta por la casa: le respondo con el saludo';
  await page.getByLabel('Nota', { exact: true }).fill(note);
  await page.getByRole('button', { name: 'Agregar nota' }).click();
  await expect(toast(page, 'Nota agregada')).toBeVisible();
  await expect(conversation.locator('li[data-entry="note"]').filter({ hasText: note })).toBeVisible();

  // A quick reply, filled in with her first name and the adviser's.
  await page.getByText('Respuestas rápidas').click();
  await page.getByRole('button', { name: new RegExp(title) }).click();
  const first = name.split(' ')[0];
  await expect(page.getByLabel('Mensaje')).toHaveValue(`Hola ${first}, soy Nadia de Ceiba. ¿Te llamo hoy?`);
  await page.getByRole('button', { name: 'Enviar', exact: true }).click();
  const ours = conversation.locator('[data-status]').filter({ hasText: `soy Nadia de Ceiba` });
  await expect(ours).toBeVisible();
  await expect(page.getByLabel('Mensaje')).toHaveValue('');
  await expect(ours.getByTestId('ticks')).toHaveText(/Enviando|Enviado/);
  // In time order: her message, the note, our answer.
  const stream = await conversation.locator('li[data-message], li[data-entry]').allTextContents();
  const at = (text: string) => stream.findIndex((row) => row.includes(text));
  expect(at(markup)).toBeGreaterThanOrEqual(0);
  expect([at(markup) < at(note), at(note) < at('soy Nadia de Ceiba')]).toEqual([true, true]);
  await platform.waitForSent(1);
  await expect(ours.getByTestId('ticks')).toHaveText(/Enviado/, { timeout: 20_000 });

  // The platform's statuses, signed: delivered, then read.
  const [row] = await sql<{ wa_message_id: string; id: string }>(
    `SELECT m.wa_message_id, m.contact_id AS id FROM whatsapp_messages m JOIN contacts c ON c.id = m.contact_id
      WHERE c.name = $1 AND m.direction = 'out' AND m.wa_message_id IS NOT NULL`,
    [name],
  );
  expect(row?.wa_message_id).toBeTruthy();
  for (const status of ['delivered', 'read'] as const) {
    expect(
      (await postWebhook(SERVER, statusPayload({ id: row?.wa_message_id as string, status, recipient: from }))).status,
    ).toBe(200);
  }
  await expect(ours.getByTestId('ticks')).toHaveText(/Leído/, { timeout: 20_000 });
  await page.getByRole('heading', { name: 'Conversación e historial' }).scrollIntoViewIfNeeded();
  await axeAt(page, 1280, 'conversacion', shot);
  await axeAt(page, 390, 'conversacion', shot);

  // A day later without a word from her: the window is closed, only templates, with the reason.
  await sql(
    `UPDATE whatsapp_messages SET created_at = created_at - interval '25 hours' WHERE contact_id = $1 AND direction = 'in'`,
    [row?.id],
  );
  await sql(
    `UPDATE whatsapp_conversations SET last_inbound_at = last_inbound_at - interval '25 hours' WHERE contact_id = $1`,
    [row?.id],
  );
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Plantilla' })).toBeVisible();
  await expect(page.getByLabel('Mensaje')).toHaveCount(0);
  await expect(page.getByTestId('composer-reason')).toContainText('24 horas');
});

/**
 * Issue #40, part 3 (decision 0063), on a phone: inside the window the
 * adviser sends "Horarios disponibles"; the buyer taps a row (the platform's
 * signed `list_reply`); the visit is booked, the confirmation is sent, and
 * the conversation and the history show every step. Axe with the list shown.
 */
test('the adviser sends the free slots, the buyer’s choice books the visit, and the conversation shows it', async ({
  page,
  sql,
}, info) => {
  test.skip(info.project.name !== 'desktop', 'one story per run');
  await page.setViewportSize({ width: 390, height: 844 });
  const member = await signInAsNewMember(page, sql, { role: 'asesor', name: 'Rocío Dzib' });
  await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, 'visita-casa-muestra')`, [member.id]);
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [member.id],
  );
  const name = uniquePersonName('Luis Caamal');
  const from = `52199${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  expect(
    (await postWebhook(SERVER, inboundPayload({ from, name, content: { body: 'Quiero agendar una visita' } }))).status,
  ).toBe(200);
  const contactId = await contactWhoWrote(sql, from);

  await page.goto(`/admin/prospecto?id=${contactId}`);
  const conversation = page.getByRole('log', { name: `Conversación e historial de ${name}` });
  await expect(conversation.getByText('Quiero agendar una visita')).toBeVisible();
  await page.getByText('Horarios disponibles').click();
  await page
    .getByRole('combobox', { name: 'Tipo de cita y lugar' })
    .selectOption({ label: 'Visita a la casa muestra · Casa muestra Mérida' });
  await page.getByRole('button', { name: 'Enviar horarios' }).click();
  const list = conversation.locator('[data-message]').filter({ hasText: 'Ver horarios' });
  await expect(list).toBeVisible();
  await expect(list.getByRole('listitem').first()).toHaveText(/^[a-záéíóú]{3} \d{1,2} [a-z]{3,4} · \d{2}:\d{2}$/);

  await expect
    .poll(() => platform.sent.filter((entry) => entry.to === from && entry.type === 'interactive').length)
    .toBe(1);
  const sent = platform.sent.find((entry) => entry.to === from && entry.type === 'interactive');
  const interactive = sent?.body.interactive as {
    action: { sections: { rows: { id: string; title: string; description: string }[] }[] };
  };
  const row = interactive.action.sections[0]?.rows[0] as { id: string; title: string; description: string };
  await expect(list.getByTestId('ticks')).toHaveText(/Enviado/, { timeout: 20_000 });
  const shot = (file: string) => info.outputPath(file);
  await axeAt(page, 1280, 'horarios', shot);
  await axeAt(page, 390, 'horarios', shot);

  // She taps the row: the platform's signed webhook.
  expect(
    (
      await postWebhook(
        SERVER,
        inboundPayload({
          from,
          name,
          type: 'interactive',
          content: { type: 'list_reply', list_reply: row },
          extra: { context: { from: '529991112233', id: sent?.body.biz_opaque_callback_data } },
        }),
      )
    ).status,
  ).toBe(200);
  await expect(conversation.getByText(`${row.title} — ${row.description}`)).toBeVisible({ timeout: 20_000 });
  const confirmation = conversation
    .locator('[data-message]')
    .filter({ hasText: '¡Listo, Luis! Tu cita quedó agendada' });
  await expect(confirmation).toBeVisible({ timeout: 20_000 });
  await expect(confirmation).toContainText('Respuesta automática');
  expect(await sql(`SELECT source, status FROM appointments WHERE contact_id = $1`, [contactId])).toEqual([
    { source: 'whatsapp', status: 'confirmada' },
  ]);
  await page.reload();
  await expect(conversation.getByText('Cita agendada')).toBeVisible();
});

test('someone from a WhatsApp ad is asked the forms’ consent once; their yes is in the history beside the ad that brought them', async ({
  page,
  sql,
}, info) => {
  test.skip(info.project.name !== 'desktop', 'one story per run');
  await page.setViewportSize({ width: 390, height: 844 });
  await adviser(page, sql);
  const name = uniquePersonName('Rubí Tec');
  const from = `52199${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const referral = {
    source_url: 'https://fb.me/3cr4Wqqkv',
    source_id: '120226305854810726',
    source_type: 'ad',
    headline: 'Casa Ceiba en 6 semanas',
    ctwa_clid: 'Aff-n8ZTODiE79d22KtAwQKj9e_mIEOOj27vDVwFjN80dp4',
  };
  const fromTheAd = inboundPayload({
    from,
    name,
    content: { body: 'Hola, ¿qué incluye la casa?' },
    extra: { referral },
  });
  expect((await postWebhook(SERVER, fromTheAd)).status).toBe(200);
  const contactId = await contactWhoWrote(sql, from);
  await expect
    .poll(() => platform.sent.filter((entry) => entry.to === from && entry.type === 'interactive').length)
    .toBe(1);
  const question = platform.sent.find((entry) => entry.to === from && entry.type === 'interactive');

  await page.goto(`/admin/prospecto?id=${contactId}`);
  await expect(page.getByText('Anuncio de WhatsApp «Casa Ceiba en 6 semanas»')).toBeVisible();
  const conversation = page.getByRole('log', { name: `Conversación e historial de ${name}` });
  const asked = conversation.locator('[data-message]').filter({ hasText: '¿Quieres recibir novedades y promociones' });
  await expect(asked).toContainText('Respuesta automática');
  await expect(asked.getByTestId('ticks')).toHaveText(/Enviado/, { timeout: 20_000 });

  // She taps «Sí, quiero»: the platform's signed webhook.
  const yes = inboundPayload({
    from,
    name,
    type: 'interactive',
    content: { type: 'button_reply', button_reply: { id: 'consentimiento:si', title: 'Sí, quiero' } },
    extra: { context: { from: '529991112233', id: question?.body.biz_opaque_callback_data } },
  });
  expect((await postWebhook(SERVER, yes)).status).toBe(200);
  await expect(conversation.getByText('Sí, quiero', { exact: true })).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(conversation.getByText('Aceptó recibir novedades y promociones')).toBeVisible();
  // Another message from the ad: not asked again.
  expect(
    (await postWebhook(SERVER, inboundPayload({ from, name, content: { body: 'Gracias' }, extra: { referral } })))
      .status,
  ).toBe(200);
  await expect(conversation.getByText('Gracias', { exact: true })).toBeVisible({ timeout: 20_000 });
  // Stored with that message, in its transaction: a second question would be here already.
  expect(
    await sql(`SELECT count(*)::int AS n FROM whatsapp_messages WHERE contact_id = $1 AND kind = 'interactive'`, [
      contactId,
    ]),
  ).toEqual([{ n: 2 }]);
  const shot = (file: string) => info.outputPath(file);
  // The pictures show the question and the answer's line.
  await asked.scrollIntoViewIfNeeded();
  await axeAt(page, 1280, 'consentimiento', shot);
  await axeAt(page, 390, 'consentimiento', shot);
});
