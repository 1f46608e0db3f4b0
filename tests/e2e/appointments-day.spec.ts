import { signInAsNewMember } from './admins.ts';
import { accessibilityViolations, expect, picture, test, toast, uniqueName } from './fixtures.ts';

/**
 * Issue #40, part 5 (decision 0062), at 390 and 1280 px: an adviser opens
 * Hoy, sees yesterday's visit still unmarked, taps "No asistió", takes the
 * proposed follow-up (tomorrow 10:00 in Mérida) in one more tap; the
 * appointment is marked, the contact's next contact set, and the visit
 * leaves the list. Métricas counts it. axe clean at each step.
 */
test.describe.configure({ timeout: 120_000 });

test('Hoy: a past visit unmarked, "No asistió", the proposed follow-up taken; Métricas counts it', async ({
  page,
  sql,
}, info) => {
  const wide = info.project.name === 'desktop';
  const size = wide ? 1280 : 390;
  const adviserName = uniqueName('Nadia Poot');
  const adviser = await signInAsNewMember(page, sql, { role: 'asesor', name: adviserName });
  const name = uniqueName('Rosa Pech');
  const phone = `+5299${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const [contact] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer, state, assigned_to) VALUES ($1, $2, true, 'visita_agendada', $3)
     RETURNING id`,
    [phone, name, adviser.id],
  );
  // A visit 26 hours ago (always a day before today in Mérida), booked from the site, never marked.
  const [appointment] = await sql<{ id: string }>(
    `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source)
     SELECT $1, 'visita-casa-muestra', 'casa-muestra-merida', $2, s, s + interval '1 hour',
            tstzrange(s - interval '15 minutes', s + interval '75 minutes'), 'confirmada', 'sitio'
     FROM (SELECT date_trunc('minute', now() - interval '26 hours') AS s) t
     RETURNING id`,
    [contact?.id, adviser.id],
  );

  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Hoy', exact: true })).toBeVisible();
  const unmarked = page.getByRole('region', { name: 'Citas sin marcar (1)' });
  const card = unmarked.getByRole('listitem').filter({ hasText: name });
  await expect(card).toContainText('Visita a la casa muestra · Casa muestra Mérida');
  await expect(page.getByRole('region', { name: 'Citas de hoy (0)' })).toContainText('Ninguna cita para hoy.');
  const noShow = card.getByRole('button', { name: 'No asistió' });
  const box = await noShow.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(44);
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: `test-results/appointments-day-hoy-${size}.png`, fullPage: true });

  await noShow.click();
  const offer = card.getByRole('group', { name: `Seguimiento: ${name}` });
  await expect(offer).toContainText('No asistió. ¿Agendar el próximo contacto para el');
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: `test-results/appointments-day-offer-${size}.png`, fullPage: true });
  expect(await sql('SELECT status FROM appointments WHERE id = $1', [appointment?.id])).toEqual([
    { status: 'no_asistio' },
  ]);

  await offer.getByRole('button', { name: 'Agendar seguimiento' }).click();
  await expect(toast(page, `Seguimiento agendado con ${name}`)).toBeVisible();
  await expect(page.getByRole('region', { name: /Citas sin marcar/ })).toHaveCount(0);
  const [stored] = await sql<{ next: string; state: string }>(
    `SELECT to_char(next_contact_at AT TIME ZONE 'America/Merida', 'YYYY-MM-DD HH24:MI') AS next, state
     FROM contacts WHERE id = $1`,
    [contact?.id],
  );
  const tomorrow = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + 86_400_000);
  expect(stored).toEqual({ next: `${tomorrow} 10:00`, state: 'visita_agendada' });
  // The contact is now due tomorrow: Hoy lists it with the others in follow-up.
  await expect(page.getByRole('region', { name: /Los demás en seguimiento/ })).toContainText(name);

  await page.goto('/admin?vista=metricas');
  const visits = page.getByRole('region', { name: 'Visitas y asesorías (12 semanas)' });
  await expect(visits.getByRole('table', { name: 'Por asesor' })).toBeVisible();
  // Booked today (1), missed (1): a no-show rate of 100 %.
  await expect(visits.getByRole('row', { name: new RegExp(adviserName) })).toHaveText(
    new RegExp(`${adviserName}\\s*1\\s*0\\s*1\\s*100 %\\s*0`),
  );
  await expect(visits.getByRole('table', { name: 'Por origen' }).getByRole('row', { name: /Sitio/ })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  await visits.scrollIntoViewIfNeeded();
  await picture(page, { path: `test-results/appointments-day-metrics-${size}.png`, fullPage: true });

  // The pipeline's two new stages: the contact stands in «Visita agendada» (a phone picks the stage first).
  await page.goto('/admin?vista=embudo&assigned=me&etapa=visita_agendada');
  const column = page.locator('[data-column="visita_agendada"]');
  await expect(column.getByRole('heading', { name: /Visita agendada/ })).toBeVisible();
  await expect(column).toContainText(name);
  await expect(page.locator('[data-column="visito"]')).toHaveCount(1); // hidden on a phone until chosen
  expect(await accessibilityViolations(page)).toEqual([]);
  await picture(page, { path: `test-results/appointments-day-pipeline-${size}.png` });
});
