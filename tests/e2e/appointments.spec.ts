import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { seedMemberGiving } from './admins.ts';
import { accessibilityViolations, expect, picture, test, uniquePersonName } from './fixtures.ts';
import { E2E_PORT } from './playwright.config.ts';

/**
 * Issue #40, the buyer's side (decision 0059): a visit booked from /modelos
 * through the slot picker, then moved from the buyer's page /cita, at the
 * project's size (390 px on 'mobile', 1280 px on 'desktop'); axe on the
 * picker and on /cita. Each story seeds a member of its own who gives the
 * visit all day (the place's hours decide), so stories side by side never
 * take each other's slot. The link's token is signed here with the server's
 * own key (its data directory's jwt-secret), as the confirmation will.
 */

const DAY = 86_400_000;

/** A phone of the story's own: the booking finds the contact by phone, and keeps the first name it had. */
const uniquePhone = () => `999 ${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;

/** A token of the appointment's link, signed with the e2e server's key. */
async function manageTokenFor(id: string, start: string): Promise<string> {
  process.env.JWT_SECRET ??= readFileSync(path.resolve(`.data/e2e-${E2E_PORT}/jwt-secret`), 'utf8').trim();
  const { manageToken } = await import('../../src/server/appointments/link.ts');
  return manageToken(id, Date.parse(start) + DAY);
}

/** Picks the `day`-th day with free slots and its first time; the start chosen. */
async function pickSlot(page: Page, scope: string, day: number): Promise<string> {
  const days = page.locator(scope).getByRole('group', { name: 'Elige el día' }).getByRole('radio');
  await expect(days.first()).toBeAttached();
  await days.nth(day).locator('..').click();
  await expect(days.nth(day)).toBeChecked();
  const time = page
    .locator(scope)
    .getByRole('group', { name: /^Elige la hora/ })
    .getByRole('radio')
    .first();
  await time.locator('..').click();
  await expect(time).toBeChecked();
  return (await time.getAttribute('value')) as string;
}

const shot = (page: Page, info: TestInfo, name: string) =>
  picture(page, { path: info.outputPath(`${name}-${page.viewportSize()?.width}.png`), fullPage: false });

test('books a visit from /modelos through the picker, then moves it from the link', async ({
  page,
  sql,
  consoleErrors,
}, info) => {
  await seedMemberGiving(sql, 'visita-casa-muestra', 'Asesora de visitas');
  const name = uniquePersonName('Visitante');

  await page.goto('/modelos');
  await page.getByRole('button', { name: 'Agenda tu visita' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agenda tu cita' });
  await expect(dialog).toBeVisible();
  // The button named the kind; the visit is free and takes an hour.
  await expect(dialog.getByRole('radio', { name: /Visita a la casa muestra/ })).toBeChecked();
  await expect(dialog.getByText('Casa muestra Mérida')).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Elige el día' })).toBeVisible();
  expect(await accessibilityViolations(page, '#agenda')).toEqual([]);
  await shot(page, info, 'picker');

  // Pressed before a time is chosen: told so, and the first day to choose has the focus (not the kind's radio).
  await dialog.getByRole('button', { name: 'Agendar cita' }).click();
  await expect(dialog.getByText('Elige un día y una hora de la lista.')).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Elige el día' }).getByRole('radio').first()).toBeFocused();
  const start = await pickSlot(page, '#agenda', 1);
  await dialog.getByLabel('Nombre').fill(name);
  await dialog.getByLabel('WhatsApp').fill(uniquePhone());
  // A wrong e-mail: the server's Spanish message under its field, and nothing typed is lost.
  await dialog.getByLabel('Correo').fill('maria@');
  await dialog.getByRole('button', { name: 'Agendar cita' }).click();
  await expect(dialog.getByText('Escribe un correo válido, por ejemplo nombre@correo.com.')).toBeVisible();
  await expect(dialog.getByLabel('Correo')).toBeFocused();
  await expect(dialog.getByLabel('Nombre')).toHaveValue(name);
  // The browser reports the 400 it was answered.
  expect(consoleErrors.splice(0)).toEqual([expect.stringContaining('400')]);
  await dialog.getByLabel('Correo').fill('');
  await shot(page, info, 'picker-filled');
  await dialog.getByRole('button', { name: 'Agendar cita' }).click();

  await expect(dialog.getByRole('heading', { name: '¡Listo, tu cita está agendada!' })).toBeFocused();
  await expect(dialog.getByText('Confirmada', { exact: true })).toBeVisible();
  expect(await accessibilityViolations(page, '#agenda')).toEqual([]);
  await shot(page, info, 'booked');
  const [booked] = await sql<{ id: string; status: string; source: string; member_id: string }>(
    `SELECT a.id, a.status, a.source, a.member_id FROM appointments a JOIN contacts c ON c.id = a.contact_id
     WHERE c.name = $1 AND a.starts_at = $2`,
    [name, start],
  );
  // With a member (this story's, or another's who is free then: the work is spread).
  expect(booked).toMatchObject({ status: 'confirmada', source: 'sitio', member_id: expect.any(String) });
  // Opened again for another kind: that kind's picker, not this booking's summary under the other kind's name.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Agendar mi asesoría' }).click();
  await expect(dialog.getByRole('radio', { name: /Asesoría personalizada/ })).toBeChecked();
  await expect(dialog.getByRole('heading', { name: '¡Listo, tu cita está agendada!' })).toHaveCount(0);

  // The buyer's page, from the link of the confirmation.
  const token = await manageTokenFor(booked?.id as string, start);
  await page.goto(`/cita?t=${token}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Tu cita' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Visita a la casa muestra' })).toBeVisible();
  await expect(page.getByText('Confirmada', { exact: true })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  expect(await accessibilityViolations(page)).toEqual([]);
  await shot(page, info, 'cita');

  await page.getByRole('button', { name: 'Cambiar fecha u hora' }).click();
  const moveForm = page.getByRole('form', { name: 'Elige el nuevo horario' });
  // The pressed button is gone: the focus is on the form that took its place.
  await expect(moveForm.getByRole('heading', { name: 'Elige el nuevo horario' })).toBeFocused();
  const newStart = await pickSlot(page, 'form[aria-labelledby="cita-move"]', 3);
  expect(newStart).not.toBe(start);
  expect(await accessibilityViolations(page)).toEqual([]);
  await shot(page, info, 'cita-move');
  await moveForm.getByRole('button', { name: 'Cambiar a este horario' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Listo: cambiamos tu cita.' })).toBeVisible();
  await expect(moveForm).toHaveCount(0);
  // The address now carries the fresh token: a reload opens the moved appointment.
  expect(new URL(page.url()).searchParams.get('t')).not.toBe(token);
  const [moved] = await sql<{ starts_at: Date; status: string }>(
    `SELECT starts_at, status FROM appointments WHERE id = $1`,
    [booked?.id],
  );
  expect(moved?.starts_at.toISOString()).toBe(newStart);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Visita a la casa muestra' })).toBeVisible();
  await shot(page, info, 'cita-moved');
  // Its own time chosen again: told nothing changed, not that it moved and a message went.
  await page.getByRole('button', { name: 'Cambiar fecha u hora' }).click();
  expect(await pickSlot(page, 'form[aria-labelledby="cita-move"]', 3)).toBe(newStart);
  await moveForm.getByRole('button', { name: 'Cambiar a este horario' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Ese ya es el horario de tu cita, así que no cambió nada.' }),
  ).toBeVisible();
});

test('cancels from the link after confirming in a dialog; the link then says it is cancelled', async ({
  page,
  sql,
  consoleErrors,
}, info) => {
  await seedMemberGiving(sql, 'visita-casa-muestra', 'Asesora de visitas');
  const { from, to } = {
    from: new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now()),
    to: new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + 20 * DAY),
  };
  const slots = await page.request.get(
    `/api/appointments/slots?kind=visita-casa-muestra&place=casa-muestra-merida&from=${from}&to=${to}`,
  );
  const free = ((await slots.json()) as { slots: { start: string }[] }).slots;
  const start = free.at(-1 - Math.floor(Math.random() * 20))?.start as string;
  const response = await page.request.post('/api/appointments', {
    headers: { Origin: `http://127.0.0.1:${E2E_PORT}`, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      name: uniquePersonName('Cancela'),
      phone: uniquePhone(),
      kind: 'visita-casa-muestra',
      place: 'casa-muestra-merida',
      start,
    },
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };

  await page.goto(`/cita?t=${await manageTokenFor(id, start)}`);
  await page.getByRole('button', { name: 'Cancelar cita' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Cancelar tu cita?' });
  await expect(confirm).toBeVisible();
  // The safe answer has the focus: Enter keeps the appointment.
  await expect(confirm.getByRole('button', { name: 'No, conservarla' })).toBeFocused();
  expect(await accessibilityViolations(page)).toEqual([]);
  await shot(page, info, 'cita-cancel');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  expect((await sql<{ status: string }>(`SELECT status FROM appointments WHERE id = $1`, [id]))[0]?.status).toBe(
    'confirmada',
  );

  await page.getByRole('button', { name: 'Cancelar cita' }).click();
  await confirm.getByRole('button', { name: 'Sí, cancelar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tu cita quedó cancelada.' })).toBeVisible();
  await expect(page.getByText('Cancelada', { exact: true })).toBeVisible();
  expect((await sql<{ status: string }>(`SELECT status FROM appointments WHERE id = $1`, [id]))[0]?.status).toBe(
    'cancelada',
  );
  await page.reload();
  await expect(page.locator('main').getByRole('alert')).toHaveText(/Esta cita ya está cancelada/);
  expect(consoleErrors.splice(0)).toEqual([expect.stringContaining('410')]);
  expect(await accessibilityViolations(page)).toEqual([]);
});

test('a link that is not ours says so in Spanish, with a way to reach us', async ({ page, consoleErrors }) => {
  await page.goto('/cita?t=esto-no-es-un-enlace');
  await expect(page.locator('main').getByRole('alert')).toHaveText(/Este enlace no es válido/);
  await expect(page.getByRole('link', { name: 'Escribir por WhatsApp' })).toBeVisible();
  expect(consoleErrors.splice(0)).toEqual([expect.stringContaining('401')]);
});

test('the landing and the advisory of /modelos open the picker on their kind; no member free says so', async ({
  page,
}, info) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Agenda tu visita a la casa muestra' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agenda tu cita' });
  await expect(dialog.getByRole('radio', { name: /Visita a la casa muestra/ })).toBeChecked();
  await expect(dialog.getByRole('group', { name: 'Elige el día' })).toBeVisible();

  await page.goto('/modelos');
  await page.getByRole('button', { name: 'Agendar mi asesoría' }).click();
  await expect(dialog.getByRole('radio', { name: /Asesoría personalizada/ })).toBeChecked();
  await expect(dialog.getByText('30 min · $499 MXN')).toBeVisible();
  // Two places: the office of Mexico City first. Nobody gives the advisory on this server.
  await expect(dialog.getByRole('radio', { name: 'Oficina Ciudad de México' })).toBeChecked();
  await expect(dialog.getByText(/No hay horarios libres en los próximos días/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Apartar mi lugar · $499 MXN' })).toBeVisible();
  expect(await accessibilityViolations(page, '#agenda')).toEqual([]);
  await shot(page, info, 'picker-empty');
});

test('the partner’s approved view books the $899 session, on Berlin’s clock, por pagar with the payment link', async ({
  page,
  sql,
}, info) => {
  await seedMemberGiving(sql, 'sesion-socios', 'Socios');
  const name = uniquePersonName('Socia');
  // One person, one phone: the evaluation and the session are the same contact (two contacts of one
  // name would be two "Resultado del contacto con …" regions of one name in another story's list).
  const phone = uniquePhone();
  await page.goto('/prefiltro-socios');
  for (const label of ['Desarrollador', 'Turístico', '1,000 a 5,000 m²', '$2 a $5 millones', 'En los próximos 3 meses'])
    await page.getByLabel(label, { exact: true }).check();
  await page
    .getByRole('radiogroup', { name: /documentación legal/ })
    .getByLabel('Sí')
    .check();
  await page
    .getByRole('radiogroup', { name: /consultoría/ })
    .getByLabel('Sí')
    .check();
  await page.getByLabel('Estado').selectOption('Quintana Roo');
  await page.getByLabel('Municipio').fill('Tulum');
  await page.getByLabel('Nombre').fill(name);
  await page.getByLabel('Teléfono (WhatsApp)').fill(phone);
  await page.getByRole('button', { name: 'Enviar evaluación' }).click();
  await expect(page.getByRole('heading', { name: '¡Felicitaciones!' })).toBeFocused();

  await page.getByRole('button', { name: 'Pagar consulta de $899 MXN' }).click();
  const picker = page.getByRole('region', { name: 'Agendar mi sesión' });
  await expect(picker.getByText('Sesión de socios')).toBeVisible();
  await picker.getByRole('radio', { name: 'Videollamada con la oficina de Berlín' }).check();
  await expect(picker.getByText('Horarios en hora de Berlín')).toBeVisible();
  const start = await pickSlot(page, 'section[aria-label="Agendar mi sesión"]', 0);
  // Berlin's office hours, on its own clock: 09:00 to 17:00.
  const berlinHour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' }).format(
      new Date(start),
    ),
  );
  expect(berlinHour).toBeGreaterThanOrEqual(9);
  expect(berlinHour).toBeLessThan(17);
  await picker.getByLabel('Nombre').fill(name);
  await picker.getByLabel('WhatsApp').fill(phone);
  expect(await accessibilityViolations(page, 'section[aria-label="Agendar mi sesión"]')).toEqual([]);
  await shot(page, info, 'partner-picker');
  await picker.getByRole('button', { name: 'Apartar mi lugar · $899 MXN' }).click();

  await expect(picker.getByRole('heading', { name: 'Apartamos tu lugar' })).toBeFocused();
  await expect(picker.getByText('Por pagar · $899 MXN')).toBeVisible();
  await expect(picker.getByText(/, \d{2}:\d{2} \(hora de Berlín\)$/).first()).toBeVisible();
  // Online payments on (issue #41): the site's own page of the payment, then Stripe's.
  await expect(picker.getByRole('link', { name: 'Pagar ahora' })).toHaveAttribute(
    'href',
    /^\/pagar\?t=[A-Za-z0-9_-]{48}$/,
  );
  // One way to pay once the session is booked: the verdict's own button leaves with the picker open.
  await expect(page.getByRole('button', { name: 'Pagar consulta de $899 MXN' })).toHaveCount(0);
  await shot(page, info, 'partner-booked');
  const [booked] = await sql<{ status: string; place: string; price_mxn: number }>(
    `SELECT a.status, a.place, a.price_mxn FROM appointments a JOIN contacts c ON c.id = a.contact_id
     WHERE a.starts_at = $1 AND a.kind = 'sesion-socios' AND c.name = $2`,
    [start, name],
  );
  expect(booked).toEqual({ status: 'por_pagar', place: 'videollamada-berlin', price_mxn: 899 });
});
