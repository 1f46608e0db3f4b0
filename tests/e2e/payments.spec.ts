import type { Page, TestInfo } from '@playwright/test';
import { type FakeStripe, startFakeStripe } from '../support/stripe-fake.ts';
import { seedMemberGiving, signInAsNewMember } from './admins.ts';
import { accessibilityViolations, expect, picture, test, uniquePersonName } from './fixtures.ts';

type Sql = <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;

import { E2E_PORT, E2E_STRIPE } from './playwright.config.ts';

/**
 * Issue #41, the buyer's side (decision 0070), on a phone (390 px): the $899
 * partner session booked as the partner's approved view books it (its picker
 * is appointments.spec's), paid from the link its answer gives, the site's page
 * /pagar, on "Stripe's" hosted page (the fake of tests/support/stripe-fake.ts,
 * on the one port the e2e server was given, whose page sends the signed
 * webhook when «Pagar» is pressed), and back on /pagar the payment is
 * confirmed by the webhook; axe on /pagar before and after.
 */

const shot = (page: Page, info: TestInfo, name: string) =>
  picture(page, { path: info.outputPath(`${name}-${page.viewportSize()?.width}.png`), fullPage: true });

test('pays the partner session from its link on /pagar by card, and /pagar says it is paid', async ({
  page,
  sql,
}, info) => {
  test.skip(info.project.name !== 'mobile', 'one story per run, on a phone');
  // The fake listens on the one port the e2e server was given: started by this story only, stopped at its end.
  const stripe = await fakeStripeWhenFree();
  try {
    await payAdvisory(page, sql, info);
  } finally {
    await stripe.close();
  }
});

/**
 * The fake on the e2e server's Stripe port, once no other copy of this story
 * (another repeat, another run's worker) holds it: each waits its turn.
 */
async function fakeStripeWhenFree(): Promise<FakeStripe> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await startFakeStripe({ port: E2E_STRIPE.port, webhookUrl: `http://127.0.0.1:${E2E_PORT}` });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function payAdvisory(page: Page, sql: Sql, info: TestInfo): Promise<void> {
  // The partner session: the advisory stays given by nobody on this server (appointments.spec's empty picker).
  await seedMemberGiving(sql, 'sesion-socios', 'Asesora de pagos');
  const name = uniquePersonName('Socia');

  // Booked as the partner's approved view books it (appointments.spec walks that picker): its answer's link to pay.
  const date = (days: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + days * 86_400_000);
  const slots = await page.request.get(
    `/api/appointments/slots?kind=sesion-socios&place=videollamada&from=${date(0)}&to=${date(20)}`,
  );
  const { slots: free } = (await slots.json()) as { slots: { start: string }[] };
  // A slot of its own: stories side by side book this kind too.
  const start = free[Math.floor(Math.random() * free.length)]?.start;
  const booked = await page.request.post('/api/appointments', {
    headers: { Origin: `http://127.0.0.1:${E2E_PORT}` },
    data: {
      name,
      phone: `999 ${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`,
      kind: 'sesion-socios',
      place: 'videollamada',
      start,
    },
  });
  expect(booked.status()).toBe(201);
  const { payUrl } = (await booked.json()) as { payUrl: string };
  expect(payUrl).toMatch(/^\/pagar\?t=[A-Za-z0-9_-]{48}$/);
  await page.goto(payUrl);

  // Our page first: what is paid, until when the slot is held, and nothing of Stripe yet.
  await expect(page.getByRole('heading', { name: 'Sesión de socios' })).toBeVisible();
  await expect(page.getByText('$899 MXN', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Tu horario está apartado hasta el /)).toBeVisible();
  expect(await accessibilityViolations(page, 'main')).toEqual([]);
  await shot(page, info, 'pagar');
  await page.getByRole('button', { name: 'Pagar $899 MXN' }).click();

  // "Stripe's" hosted page (the fake), then back: the webhook's word, not the browser's.
  await expect(page.getByRole('heading', { name: 'Pago simulado de Stripe' })).toBeVisible();
  await page.getByRole('button', { name: 'Pagar con tarjeta' }).click();
  await expect(page).toHaveURL(/\/pagar\?t=.*&estado=listo/);
  await expect(page.getByText('¡Pago recibido!')).toBeVisible();
  await expect(page.getByText('Tu cita quedó confirmada.', { exact: false })).toBeVisible();
  expect(await accessibilityViolations(page, 'main')).toEqual([]);
  await shot(page, info, 'pagado');

  const [row] = await sql<{ status: string; payment: string; method: string }>(
    `SELECT a.status, p.status AS payment, p.method FROM appointments a JOIN contacts c ON c.id = a.contact_id
     JOIN payments p ON p.appointment_id = a.id WHERE c.name = $1`,
    [name],
  );
  expect(row).toEqual({ status: 'confirmada', payment: 'pagado', method: 'tarjeta' });
}

test('an administrator finds the payments in /admin#pagos, filters them and sees them on the contact’s appointment', async ({
  page,
  sql,
}, info) => {
  test.skip(info.project.name !== 'desktop', 'one story per run (the administrators’ stories run on desktop)');
  const admin = await signInAsNewMember(page, sql, { role: 'admin' });
  const buyer = uniquePersonName('Pagadora');
  const phone = `+52999${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const [contact] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer, state, assigned_to) VALUES ($1, $2, true, 'visita_agendada', $3) RETURNING id`,
    [phone, buyer, admin.id],
  );
  // Three consultations of hers: one paid by card, one waiting for its OXXO voucher, and one paid at OXXO that the
  // team cancelled, whose money is to be given back by hand (Stripe does not refund OXXO).
  const [paid, waiting, owed] = await sql<{ id: string }>(
    `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source, hold_until,
                               price_mxn)
     SELECT $1, 'asesoria-personalizada', 'videollamada', $2, at, at + interval '30 minutes',
            tstzrange(at, at + interval '45 minutes'), s, 'sitio', CASE WHEN s = 'por_pagar' THEN at END, 499
     FROM (VALUES (now() + interval '5 days', 'confirmada'), (now() + interval '9 days', 'por_pagar'),
                  (now() + interval '7 days', 'cancelada')) AS v (at, s)
     RETURNING id`,
    [contact?.id, admin.id],
  );
  const suffix = Math.random().toString(36).slice(2, 10);
  await sql(
    `INSERT INTO payments (appointment_id, contact_id, session_id, session_url, session_expires_at, amount_mxn, concept,
                           status, method, paid_at, pay_by, voucher, refund_requested_at)
     VALUES ($1, $3, $4, 'https://checkout.stripe.com/c/pay/x', now(), 499, 'Asesoría personalizada · Videollamada',
             'pagado', 'tarjeta', now(), NULL, NULL, NULL),
            ($2, $3, $5, 'https://checkout.stripe.com/c/pay/y', now(), 499, 'Asesoría personalizada · Videollamada',
             'pendiente', 'oxxo', NULL, now() + interval '1 day', '{"number": "123"}', NULL),
            ($6, $3, $7, 'https://checkout.stripe.com/c/pay/z', now(), 499, 'Asesoría personalizada · Videollamada',
             'pagado', 'oxxo', now(), NULL, '{"number": "456"}', now())`,
    [
      paid?.id,
      waiting?.id,
      contact?.id,
      `cs_test_e2e_a_${suffix}`,
      `cs_test_e2e_b_${suffix}`,
      owed?.id,
      `cs_test_e2e_c_${suffix}`,
    ],
  );

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto('/admin?vista=pagos');
    const list = page.getByRole('list', { name: 'Pagos' });
    await expect(list.getByRole('link', { name: buyer }).first()).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Resumen de pagos' }).or(page.getByLabel('Resumen de pagos')),
    ).toBeVisible();
    expect(await accessibilityViolations(page, 'main')).toEqual([]);
    await picture(page, { path: info.outputPath(`pagos-${width}.png`), fullPage: true });
  }
  // The OXXO payment to give back waits out of what was collected; the administrator records it once given back.
  const entries = page.getByRole('list', { name: 'Pagos' }).getByRole('listitem').filter({ hasText: buyer });
  const owedEntry = entries.filter({ hasText: 'Reembolso pendiente' });
  await owedEntry.getByRole('button', { name: 'Ya lo devolví' }).click();
  await expect(owedEntry.getByRole('group', { name: /^¿Confirmas que le devolviste .*499 a / })).toBeVisible();
  expect(await accessibilityViolations(page, 'main')).toEqual([]);
  await picture(page, { path: info.outputPath('devuelto-390.png'), fullPage: false });
  await owedEntry.getByRole('button', { name: 'Sí, registrar la devolución' }).click();
  await expect(entries.filter({ hasText: 'Reembolsado · OXXO' })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Reembolso pendiente' })).toHaveCount(0);

  await page.getByLabel('Estado').selectOption('pendiente');
  await expect(page.getByRole('list', { name: 'Pagos' }).getByText('Pendiente · OXXO').first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Pagos' }).getByText('Pagado · Tarjeta')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Descargar CSV' })).toHaveAttribute(
    'href',
    '/api/admin/payments/export.csv?status=pendiente',
  );

  // The contact's appointments say which is paid and which waits for its voucher.
  await page.goto(`/admin/prospecto?id=${contact?.id}`);
  const citas = page.getByRole('region', { name: 'Citas' });
  await expect(citas.getByText('Pagada · Tarjeta')).toBeVisible();
  await expect(citas.getByText('Pago pendiente · OXXO')).toBeVisible();
  await picture(page, { path: info.outputPath('contact-citas-390.png'), fullPage: false });

  // The team cancels the paid one: asked first, saying the buyer is refunded; then the refund is on its way.
  const paidCard = citas.getByTestId('appointment').filter({ hasText: 'Pagada · Tarjeta' });
  await paidCard.getByRole('button', { name: `Cancelar cita: ${buyer}` }).click();
  const ask = page.getByRole('dialog', { name: `¿Cancelar la cita de ${buyer}?` });
  await expect(ask.getByText('Como ya la pagó, se le devuelve el pago.', { exact: false })).toBeVisible();
  expect(await accessibilityViolations(page, 'dialog')).toEqual([]);
  await picture(page, { path: info.outputPath('cancel-390.png'), fullPage: false });
  await ask.getByRole('button', { name: 'Sí, cancelar' }).click();
  await expect(ask).toBeHidden();
  await expect(
    citas.getByTestId('appointment').filter({ hasText: 'Pagada · Tarjeta' }).getByText('Cancelada'),
  ).toBeVisible();
  const [refund] = await sql<{ requested: boolean }>(
    'SELECT refund_requested_at IS NOT NULL AS requested FROM payments WHERE appointment_id = $1',
    [paid?.id],
  );
  expect(refund?.requested).toBe(true);
});
