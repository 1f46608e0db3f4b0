import { signInAsNewMember } from './admins.ts';
import { accessibilityViolations, expect, picture, test, toast, uniquePersonName } from './fixtures.ts';

// A story with axe at two sizes beside other workers.
test.describe.configure({ timeout: 150_000 });

const SHOTS = process.env.SCREENSHOTS_DIR;

/**
 * Issue #40, the panel's side (decision 0061): an adviser sets their hours
 * and the kinds they give, books a visit for one of their contacts from the
 * contact's page (the dialog's free slots), sees it in the contact's "Citas"
 * and in their Agenda by day and by week; axe is clean on the calendar at
 * 390 and 1280 px.
 */
test('an adviser sets their hours, books a visit from a contact’s page and finds it in their calendar', async ({
  page,
  sql,
}) => {
  const name = uniquePersonName('Asesora');
  const me = await signInAsNewMember(page, sql, { role: 'asesor', name });
  const buyer = uniquePersonName('Irma');
  const phone = `+52999${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const [contact] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer, state, assigned_to) VALUES ($1, $2, true, 'contactado', $3) RETURNING id`,
    [phone, buyer, me.id],
  );

  // Hours: every day 09:00 to 18:00 (the form's first range), and the visit to the model house.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin?vista=disponibilidad');
  await expect(page.getByRole('heading', { name: 'Disponibilidad para citas' })).toBeVisible();
  for (const day of ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo']) {
    await page.getByRole('button', { name: `Agregar horario el ${day}` }).click();
  }
  await expect(page.getByLabel('Lunes, horario 1: desde')).toHaveValue('09:00');
  await page.getByRole('checkbox', { name: 'Visita a la casa muestra' }).check();
  await page.getByRole('button', { name: 'Guardar disponibilidad' }).click();
  await expect(toast(page, 'Disponibilidad guardada')).toBeVisible();
  const hours = await sql<{ n: string }>('SELECT count(*) AS n FROM member_weekly_hours WHERE member_id = $1', [me.id]);
  expect(Number(hours[0]?.n)).toBe(7);
  if (SHOTS) await picture(page, { path: `${SHOTS}/availability-390.png`, fullPage: true });

  // The contact's page: Citas is empty; Agendar cita opens the dialog with the free slots.
  await page.goto(`/admin/prospecto?id=${contact?.id}`);
  const citas = page.getByRole('region', { name: 'Citas' });
  await expect(citas.getByText('Sin citas todavía.')).toBeVisible();
  await citas.getByRole('button', { name: 'Agendar cita' }).click();
  const dialog = page.getByRole('dialog', { name: `Agendar cita · ${buyer}` });
  await expect(dialog.getByLabel('Tipo de cita')).toHaveValue('visita-casa-muestra');
  // The public picker's core (SlotPicker): the first day with free slots is shown; its first time is picked.
  const times = dialog.getByRole('group', { name: /Elige la hora/ });
  const first = times.getByRole('radio').first();
  await expect(first).toBeAttached();
  const start = await first.getAttribute('value');
  await first.check({ force: true }); // the radio is visually hidden; its label is the target
  await expect(first).toBeChecked();
  if (SHOTS) await picture(page, { path: `${SHOTS}/booking-390.png` });
  await dialog.getByRole('button', { name: 'Agendar cita' }).click();
  await expect(toast(page, 'Cita agendada')).toBeVisible();
  await expect(dialog).toBeHidden();
  const item = citas.getByTestId('appointment');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Visita a la casa muestra');
  await expect(item).toContainText('Confirmada');

  // The outcome "Agendó visita", once recorded, opens the same dialog.
  await page.getByRole('button', { name: 'Agendó visita' }).click();
  await page
    .getByRole('dialog', { name: `Agendó visita · ${buyer}` })
    .getByRole('button', { name: 'Guardar' })
    .click();
  await expect(toast(page, 'Guardado: Agendó visita')).toBeVisible();
  const again = page.getByRole('dialog', { name: `Agendar cita · ${buyer}` });
  await expect(again.getByRole('group', { name: /Elige la hora/ })).toBeVisible();
  await again.getByRole('button', { name: 'Cancelar' }).click();
  await expect(again).toBeHidden();

  // Booked for this contact, by this adviser, from the panel: no new contact.
  const [row] = await sql<{ contact_id: string; member_id: string; source: string; day: string }>(
    `SELECT contact_id, member_id, source, to_char(starts_at AT TIME ZONE 'America/Merida', 'YYYY-MM-DD') AS day
     FROM appointments WHERE contact_id = $1`,
    [contact?.id],
  );
  expect(row).toMatchObject({ contact_id: contact?.id, member_id: me.id, source: 'panel' });
  // Other stories add contacts to the shared database meanwhile: this person is still one contact.
  const named = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1 OR name = $2', [phone, buyer]);
  expect(named.map((each) => each.id)).toEqual([contact?.id]);
  expect(new Date(start ?? '').toISOString()).toBe(
    (
      await sql<{ at: Date }>('SELECT starts_at AS at FROM appointments WHERE contact_id = $1', [contact?.id])
    )[0]?.at.toISOString(),
  );

  // Agenda: the day, then the week, on a phone.
  await page.goto(`/admin?vista=agenda&modo=dia&fecha=${row?.day}`);
  // Other stories' bookings from the site may fall to this adviser too (whoever holds the fewest is offered
  // first): this contact's visit is the one looked for.
  const mine = page.getByTestId('appointment').filter({ hasText: buyer });
  await expect(mine).toHaveCount(1);
  await expect(mine.getByRole('link', { name: buyer })).toHaveAttribute('href', `/admin/prospecto?id=${contact?.id}`);
  await expect(mine).toContainText('Casa muestra Mérida');
  await page.getByRole('button', { name: 'Semana', exact: true }).click();
  await expect(page).not.toHaveURL(/modo=dia/);
  await expect(mine).toHaveCount(1);
  expect(await accessibilityViolations(page, 'main')).toEqual([]);
  if (SHOTS) await picture(page, { path: `${SHOTS}/calendar-390.png`, fullPage: true });

  // A week with nothing says so.
  for (let week = 0; week < 5; week++) await page.getByRole('button', { name: 'Semana siguiente' }).click();
  await expect(page.getByText('No hay citas esta semana.', { exact: false })).toBeVisible();

  // The desktop's week grid.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/admin?vista=agenda&fecha=${row?.day}`);
  await expect(page.getByTestId('appointment')).toHaveCount(1);
  expect(await accessibilityViolations(page, 'main')).toEqual([]);
  if (SHOTS) await picture(page, { path: `${SHOTS}/calendar-1280.png`, fullPage: true });
});
