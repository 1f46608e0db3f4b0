import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingAnswer, FreeSlot } from '../../src/lib/appointments/booking.ts';
import type { PaymentPageAnswer } from '../../src/lib/payments/words.ts';
import { manageToken } from '../../src/server/appointments/link.ts';
import { PAYMENT_REFUND_TASK } from '../../src/server/appointments/refunds.ts';
import { CONCURRENCY } from '../../src/server/jobs/pool.ts';
import { deadlineGraceMs } from '../../src/server/payments/events.ts';
import { inviteAdviser, originOf, setupAdmin } from '../support/admin.ts';
import { seedMemberGiving } from '../support/advisers.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import {
  type FakeStripe,
  STRIPE_KEY,
  sendEvent,
  signatureOf,
  startFakeStripe,
  stripeEnv,
  stripeEvent,
} from '../support/stripe-fake.ts';
import { until, untilValue } from '../support/until.ts';
import { type FakePlatform, startFakePlatform, whatsappEnv } from '../support/whatsapp-platform.ts';

/**
 * Issue #41 (decision 0070): the $499 consultation paid through Stripe
 * Checkout, over HTTP on one server for the file, with Stripe faked at the
 * network edge (tests/support/stripe-fake.ts: its API answered from its
 * documented objects, its webhook's events signed by the official SDK's own
 * helper) and WhatsApp's Cloud API faked the same way. Paid only by a
 * verified webhook; each story books an appointment of its own.
 */

const SECRET = 'payments-test-secret-of-at-least-32-bytes-long';
// This process signs the links as the server does (JWT_SECRET, given to both).
process.env.JWT_SECRET = SECRET;

let server: RunningServer;
let stripe: FakeStripe;
let platform: FakePlatform;
const KIND = 'asesoria-personalizada';
const PLACE = 'videollamada';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  [stripe, platform] = await Promise.all([startFakeStripe(), startFakePlatform()]);
  server = await startServer({
    ...stripeEnv(stripe),
    ...whatsappEnv(platform),
    JWT_SECRET: SECRET,
    PLATFORM_RATE_LIMIT: '0',
    LEAD_RATE_LIMIT: '1000',
    SITE_URL: 'https://www.ceibacasas.mx',
  });
  await seedMemberGiving(sql, KIND, 'Eva Pech');
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([stripe?.close(), platform?.close()]);
});

const used = new Set<string>();

/** The first administrator's session, made once for the file (the set-up endpoint makes only one). */
let admin: Promise<string> | undefined;
const adminCookie = () => {
  admin ??= setupAdmin(server.url, 'admin.pagos@ceiba.mx', 'contraseña-segura-pagos');
  return admin;
};

/** A free slot of the consultation starting between `fromHours` and `toHours` from now, not taken by another story. */
async function freeSlot(fromHours: number, toHours: number): Promise<FreeSlot> {
  const date = (offset: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offset);
  const response = await fetch(
    `${server.url}/api/appointments/slots?kind=${KIND}&place=${PLACE}&from=${date(0)}&to=${date(toHours * HOUR + DAY)}`,
  );
  const { slots } = (await response.json()) as { slots: FreeSlot[] };
  const slot = slots.find((candidate) => {
    const start = Date.parse(candidate.start);
    return (
      start >= Date.now() + fromHours * HOUR &&
      start <= Date.now() + toHours * HOUR &&
      ![...used].some((taken) => Math.abs(Date.parse(taken) - start) < HOUR)
    );
  });
  if (!slot) throw new Error(`no free slot between ${fromHours} and ${toHours} hours`);
  used.add(slot.start);
  return slot;
}

const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function book(slot: FreeSlot): Promise<BookingAnswer & { phone: string }> {
  const phone = uniquePhone();
  const response = await fetch(`${server.url}/api/appointments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({ name: 'Lucía Pérez', phone, kind: KIND, place: PLACE, start: slot.start }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return { ...((await response.json()) as BookingAnswer), phone };
}

const tokenOf = (answer: BookingAnswer) => new URL(answer.payUrl ?? '', 'https://x').searchParams.get('t') ?? '';

async function checkout(t: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${server.url}/api/pagos/checkout`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
    body: JSON.stringify({ t, ...extra }),
  });
}

async function page(t: string): Promise<PaymentPageAnswer> {
  const response = await fetch(`${server.url}/api/pagos/estado?t=${t}`);
  expect(response.status).toBe(200);
  return (await response.json()) as PaymentPageAnswer;
}

/** Opens the checkout of a booked appointment: the session the fake made for it. */
async function opened(answer: BookingAnswer): Promise<{ id: string; url: string }> {
  const response = await checkout(tokenOf(answer));
  expect(response.status, await response.clone().text()).toBe(200);
  const { url } = (await response.json()) as { url: string };
  const id = url.split('/').at(-1) as string;
  expect(stripe.sessions.get(id)?.client_reference_id).toBe(answer.id);
  return { id, url };
}

const sessionObject = (id: string, extra: Record<string, unknown>) => ({
  ...stripe.sessions.get(id),
  ...extra,
});

/** Sends `event` as Stripe does and waits until its job applied it (the webhook answers before). */
async function deliver(event: Record<string, unknown>): Promise<void> {
  const response = await sendEvent(server.url, event);
  expect(response.status, await response.clone().text()).toBe(200);
  await until(
    async () => (await countRows('payment_events', 'event_id = $1 AND applied_at IS NOT NULL', [event.id])) === 1,
    `the event ${String(event.id)} applied`,
  );
}

const appointmentStatus = async (id: string) =>
  (await sql<{ status: string }>('SELECT status FROM appointments WHERE id = $1', [id]))[0]?.status;
const paymentOf = async (appointment: string) =>
  (
    await sql<{ status: string; method: string | null; pay_by: Date | null; voucher: Record<string, string> | null }>(
      'SELECT status, method, pay_by, voucher FROM payments WHERE appointment_id = $1 ORDER BY created_at DESC LIMIT 1',
      [appointment],
    )
  )[0];

/**
 * The appointment's transfer reaches its deadline unpaid: the deadline and its job's time moved to now (the
 * queue, no waiting); returns once the job expired it.
 */
async function pastDeadline(appointment: string): Promise<void> {
  const [payment] = await sql<{ id: string }>('SELECT id FROM payments WHERE appointment_id = $1', [appointment]);
  await sql(`UPDATE payments SET pay_by = now() - interval '1 minute' WHERE id = $1`, [payment?.id]);
  await sql(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [
    `payment-deadline:${payment?.id}`,
  ]);
  await untilValue(
    () => paymentOf(appointment),
    (value) => value?.status === 'vencido',
    'the transfer expired',
  );
}

/** Stripe's PaymentIntent of a SPEI transfer waiting for `remaining` centavos of the $499 (49,900). */
const speiIntent = (id: string, appointment: string, remaining: number) => ({
  id,
  object: 'payment_intent',
  amount: 49900,
  currency: 'mxn',
  status: 'requires_action',
  metadata: { appointment_id: appointment },
  next_action: {
    type: 'display_bank_transfer_instructions',
    display_bank_transfer_instructions: {
      type: 'mx_bank_transfer',
      reference: '123456',
      amount_remaining: remaining,
      currency: 'mxn',
      hosted_instructions_url: 'https://payments.stripe.com/instructions/test_1',
      financial_addresses: [
        {
          type: 'spei',
          supported_networks: ['spei'],
          spei: { clabe: '002010077777777771', bank_code: '002', bank_name: 'Banamex', account_holder_name: 'Ceiba' },
        },
      ],
    },
  },
});

/**
 * Stripe's two notices of an OXXO voucher chosen on its page: the voucher's details (its number and the
 * deadline Stripe states), then the checkout completed unpaid.
 */
async function voucherChosen(
  answer: BookingAnswer,
  session: string,
  intent: string,
  number: string,
  expiresAfter: number,
) {
  await deliver(
    stripeEvent('payment_intent.requires_action', {
      id: intent,
      object: 'payment_intent',
      status: 'requires_action',
      metadata: { appointment_id: answer.id },
      next_action: {
        type: 'oxxo_display_details',
        oxxo_display_details: {
          number,
          hosted_voucher_url: `https://payments.stripe.com/oxxo/voucher/${intent}`,
          expires_after: expiresAfter,
        },
      },
    }),
  );
  await deliver(
    stripeEvent(
      'checkout.session.completed',
      sessionObject(session, { payment_status: 'unpaid', payment_intent: intent }),
    ),
  );
}

describe('a checkout for a paid appointment', () => {
  it('is Stripe’s hosted page for the appointment, the amount and concept from the data, card only when it is near', async () => {
    const answer = await book(await freeSlot(14, 71));
    expect(answer.status).toBe('por_pagar');
    expect(answer.payUrl).toMatch(/^\/pagar\?t=[A-Za-z0-9_-]{48}$/);
    expect((await page(tokenOf(answer))).notPayable).toBeNull();

    // The browser has no say in the amount: a body with more than the link is refused.
    const tampered = await checkout(tokenOf(answer), { amount: 1 });
    expect(tampered.status).toBe(400);

    const { id, url } = await opened(answer);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const created = stripe.calls.find(
      (call) => call.path === '/v1/checkout/sessions' && call.body.client_reference_id === answer.id,
    );
    expect(created?.authorization).toBe(`Bearer ${STRIPE_KEY}`);
    expect(created?.idempotencyKey).toBe(`checkout:${answer.id}:0`);
    expect(created?.body).toMatchObject({
      mode: 'payment',
      currency: 'mxn',
      locale: 'es-419',
      'line_items[0][price_data][unit_amount]': '49900',
      'line_items[0][price_data][currency]': 'mxn',
      'allowed_payment_method_types[0]': 'card',
      'metadata[appointment_id]': answer.id,
      'payment_intent_data[metadata][appointment_id]': answer.id,
    });
    expect(created?.body['line_items[0][price_data][product_data][name]']).toContain('Asesoría personalizada');
    expect(created?.body['allowed_payment_method_types[1]']).toBeUndefined();
    expect(created?.body.success_url).toBe(`https://www.ceibacasas.mx${answer.payUrl}&estado=listo`);

    // Asked again while it is open: the same session, no second one.
    const again = await checkout(tokenOf(answer));
    expect(((await again.json()) as { url: string }).url).toBe(url);
    expect(await countRows('payments', 'appointment_id = $1', [answer.id])).toBe(1);
    expect((await paymentOf(answer.id))?.status).toBe('abierto');
    expect(stripe.sessions.has(id)).toBe(true);
  });

  it('is offered from the appointment’s own page too, where the WhatsApp confirmation leads (a buyer without e-mail)', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const own = await fetch(
      `${server.url}/api/appointments/manage?t=${manageToken(answer.id, Date.parse(answer.start) + DAY)}`,
    );
    expect(own.status).toBe(200);
    const { payUrl, status } = (await own.json()) as { payUrl: string | null; status: string };
    expect(status).toBe('por_pagar');
    expect(payUrl).toMatch(/^\/pagar\?t=/);
    const t = new URL(payUrl ?? '', 'https://x').searchParams.get('t') ?? '';
    // On the place's clock (the video call keeps Mérida's), for buyers: /pagar shows the hold and books again by them.
    expect(await page(t)).toMatchObject({
      notPayable: null,
      priceMxn: 499,
      timeZone: 'America/Merida',
      audience: 'compradores',
    });
  });

  it('refuses a link that is not ours, and a cross-site post', async () => {
    const answer = await book(await freeSlot(14, 71));
    const forged = `${tokenOf(answer).slice(0, 40)}AAAAAAAA`;
    expect((await checkout(forged)).status).toBe(401);
    expect((await fetch(`${server.url}/api/pagos/estado?t=${forged}`)).status).toBe(401);
    // The manage link does not pay: each link has one purpose.
    const manage = manageToken(answer.id, Date.parse(answer.start) + DAY);
    expect((await checkout(manage)).status).toBe(401);
    const crossSite = await fetch(`${server.url}/api/pagos/checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://otro.example' },
      body: JSON.stringify({ t: tokenOf(answer) }),
    });
    expect(crossSite.status).toBe(403);
    expect(await countRows('payments', 'appointment_id = $1', [answer.id])).toBe(0);
  });

  it('refuses a hold with less than ten minutes left: the slot is not kept from others by opening checkouts', async () => {
    const answer = await book(await freeSlot(14, 71));
    await sql(`UPDATE appointments SET hold_until = now() + interval '5 minutes' WHERE id = $1`, [answer.id]);
    const response = await checkout(tokenOf(answer));
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({
      code: 'expired',
      error: 'El apartado de este horario venció sin pago. Agenda de nuevo desde el sitio.',
    });
    expect(await countRows('payments', 'appointment_id = $1', [answer.id])).toBe(0);
  });

  it('stretches a hold once at most, even when the next press comes exactly ten minutes before it ends', async () => {
    const answer = await book(await freeSlot(14, 71));
    const { id } = await opened(answer);
    // After a stretch, the hold ends with the open checkout: the press exactly ten minutes before both ends.
    const [held] = await sql<{ until: number }>(
      `UPDATE appointments a SET hold_until = p.session_expires_at FROM payments p
       WHERE a.id = $1 AND p.session_id = $2 RETURNING extract(epoch FROM a.hold_until) * 1000 AS until`,
      [answer.id, id],
    );
    const { parseConfig } = await import('../../src/server/config.ts');
    const { withDatabase } = await import('../../src/server/db/database.ts');
    const { NotPayable, openCheckout } = await import('../../src/server/payments/checkout.ts');
    const config = parseConfig({ ...process.env, ...stripeEnv(stripe) });
    const now = Number(held?.until) - 10 * 60_000;
    const pressed = withDatabase(
      (db) => openCheckout(db, config.payments as NonNullable<typeof config.payments>, answer.id, server.url, now),
      config,
    );
    await expect(pressed).rejects.toBeInstanceOf(NotPayable);
    expect(await countRows('payments', 'appointment_id = $1', [answer.id])).toBe(1);
  });

  it('answers a Stripe outage with a Spanish 503 and stores nothing', async () => {
    const answer = await book(await freeSlot(14, 71));
    stripe.failNext(500);
    const response = await checkout(tokenOf(answer));
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toBe(
      'No pudimos abrir el pago en este momento. Intenta de nuevo en unos minutos.',
    );
    expect(await countRows('payments', 'appointment_id = $1', [answer.id])).toBe(0);
  });
});

describe('the webhook', () => {
  it('makes a card payment paid: the appointment confirmed, its history and the page say so', async () => {
    const answer = await book(await freeSlot(14, 71));
    const { id } = await opened(answer);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_card_1' }),
      ),
    );
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
    expect(await paymentOf(answer.id)).toMatchObject({ status: 'pagado', method: 'tarjeta' });
    const history = await sql<{ to_value: string; detail: string }>(
      `SELECT e.to_value, e.detail FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
       WHERE a.id = $1 AND e.kind = 'payment'`,
      [answer.id],
    );
    expect(history).toEqual([{ to_value: 'Pagado', detail: expect.stringContaining('$499 MXN · tarjeta') }]);
    const shown = await page(tokenOf(answer));
    expect(shown).toMatchObject({ notPayable: 'paid', payment: { status: 'pagado', method: 'tarjeta' } });
    expect((await checkout(tokenOf(answer))).status).toBe(409);
  });

  it('shows the payment that stands: a second one of the same visit, refunded, does not make it look refunded', async () => {
    const answer = await book(await freeSlot(14, 71));
    const { id } = await opened(answer);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_card_twice_1' }),
      ),
    );
    // Paid twice (two tabs), the second given back: as the refund's webhook leaves it.
    await sql(
      `INSERT INTO payments (appointment_id, contact_id, session_id, session_url, session_expires_at, amount_mxn, concept,
                             status, method, paid_at, refund_requested_at, created_at)
       SELECT a.id, a.contact_id, 'cs_test_twice_2', 'https://checkout.stripe.com/c/pay/z', now(), 499, 'Asesoría personalizada',
              'reembolsado', 'tarjeta', now(), now(), now() + interval '1 second'
       FROM appointments a WHERE a.id = $1`,
      [answer.id],
    );
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
    expect(await page(tokenOf(answer))).toMatchObject({
      notPayable: 'paid',
      payment: { status: 'pagado', method: 'tarjeta' },
    });
  });

  it('a second checkout expires the first at Stripe; a second payment of one appointment is refunded, the first stands', async () => {
    const answer = await book(await freeSlot(14, 71));
    const first = await opened(answer);
    // Less than ten minutes left on the first: the next press opens another.
    await sql(`UPDATE payments SET session_expires_at = now() + interval '5 minutes' WHERE session_id = $1`, [
      first.id,
    ]);
    const second = await opened(answer);
    expect(second.id).not.toBe(first.id);
    expect(stripe.sessions.get(first.id)?.status).toBe('expired');
    // Both paid all the same (the first one's payment crossed its expiry at Stripe).
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(first.id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_twice_1' }),
      ),
    );
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(second.id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_twice_2' }),
      ),
    );
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
    const refunds = () => stripe.calls.filter((call) => call.method === 'POST' && call.path === '/v1/refunds');
    await until(() => refunds().some((call) => call.body.payment_intent === 'pi_twice_2'), 'the second one refunded');
    expect(refunds().filter((call) => call.body.payment_intent === 'pi_twice_1')).toEqual([]);
    const history = await sql<{ to_value: string; detail: string }>(
      `SELECT e.to_value, e.detail FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
       WHERE a.id = $1 AND e.kind = 'payment' AND e.to_value = 'Reembolso solicitado'`,
      [answer.id],
    );
    expect(history).toEqual([
      { to_value: 'Reembolso solicitado', detail: 'Llegó un segundo pago de la misma cita: se pidió su reembolso.' },
    ]);
  });

  it('applies an event whose job gave up during an outage, at the queue’s next upkeep', async () => {
    const answer = await book(await freeSlot(14, 71));
    const { id } = await opened(answer);
    const event = stripeEvent(
      'checkout.session.completed',
      sessionObject(id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_given_up' }),
    );
    // The outage: no payment can change while the trigger stands (the webhook's own try and the job's fail).
    await sql(`CREATE FUNCTION refuse_payment_change() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'payments refused (test)'; END $$`);
    await sql(`CREATE TRIGGER refuse_payment_change BEFORE UPDATE ON payments
               FOR EACH ROW EXECUTE FUNCTION refuse_payment_change()`);
    // The event's job (its payload is graphile-worker's own: not in its public view).
    const job = () =>
      sql<{ last_error: string | null; locked: boolean; attempts: number }>(
        `SELECT j.last_error, j.locked_at IS NOT NULL AS locked, j.attempts
         FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
         WHERE t.identifier = 'payment_event' AND j.payload ->> 'eventId' = $1`,
        [event.id],
      );
    try {
      expect((await sendEvent(server.url, event)).status).toBe(200);
      await untilValue(job, (jobs) => jobs[0]?.last_error?.includes('payments refused') === true, 'a refused try');
      // Its attempts spent, as by days of outage.
      await sql(
        `UPDATE graphile_worker._private_jobs j SET attempts = max_attempts FROM graphile_worker._private_tasks t
         WHERE t.id = j.task_id AND t.identifier = 'payment_event' AND j.payload ->> 'eventId' = $1`,
        [event.id],
      );
    } finally {
      await sql('DROP TRIGGER refuse_payment_change ON payments');
      await sql('DROP FUNCTION refuse_payment_change()');
    }
    await untilValue(job, (jobs) => jobs[0]?.locked === false, 'the job given up');
    expect((await paymentOf(answer.id))?.status).not.toBe('pagado');

    // The queue's upkeep (every half minute, and at every start) takes it up again.
    const { parseConfig } = await import('../../src/server/config.ts');
    const { withDatabase } = await import('../../src/server/db/database.ts');
    const { paymentJobs } = await import('../../src/server/payments/jobs.ts');
    const config = parseConfig({ ...process.env, ...stripeEnv(stripe) });
    await withDatabase((db) => paymentJobs.maintain?.(db, config, new Date()) ?? Promise.resolve(), config);
    await until(
      async () => (await countRows('payment_events', 'event_id = $1 AND applied_at IS NOT NULL', [event.id])) === 1,
      'the event applied',
    );
    expect(await paymentOf(answer.id)).toMatchObject({ status: 'pagado', method: 'tarjeta' });
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
  });

  it('refuses a forged signature with 401 and writes nothing', async () => {
    const answer = await book(await freeSlot(14, 71));
    const { id } = await opened(answer);
    const event = stripeEvent('checkout.session.completed', sessionObject(id, { payment_status: 'paid' }));
    const before = await countRows('payment_events');
    const forged = await sendEvent(server.url, event, `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`);
    expect(forged.status).toBe(401);
    const unsigned = await fetch(`${server.url}/api/pagos/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(401);
    // Stripe's own signature, but older than its five minutes: a replay, refused.
    const old = await signatureOf(JSON.stringify(event), Math.floor(Date.now() / 1000) - 600);
    expect((await sendEvent(server.url, event, old)).status).toBe(401);
    expect(await countRows('payment_events')).toBe(before);
    expect((await paymentOf(answer.id))?.status).toBe('abierto');
    expect(await appointmentStatus(answer.id)).toBe('por_pagar');
  });

  it('applies the same event sent 20 times at once once', async () => {
    const answer = await book(await freeSlot(14, 71));
    const { id } = await opened(answer);
    const event = stripeEvent(
      'checkout.session.completed',
      sessionObject(id, { payment_status: 'paid', payment_intent: 'pi_twenty' }),
    );
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendEvent(server.url, event)));
    expect(answers.map((response) => response.status)).toEqual(Array(20).fill(200));
    // Stored once: one answer says so, the other 19 that it came before.
    const bodies = (await Promise.all(answers.map((response) => response.json()))) as { duplicate: boolean }[];
    expect(bodies.filter((body) => !body.duplicate)).toHaveLength(1);
    expect(await countRows('payment_events', 'event_id = $1', [event.id])).toBe(1);
    await until(
      async () => (await countRows('payment_events', 'event_id = $1 AND applied_at IS NOT NULL', [event.id])) === 1,
      'the event applied',
    );
    expect(await countRows('payments', 'appointment_id = $1', [answer.id])).toBe(1);
    expect(
      await countRows(
        'contact_events',
        `kind = 'payment' AND contact_id = (SELECT contact_id FROM appointments WHERE id = $1)`,
        [answer.id],
      ),
    ).toBe(1);
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
  });

  it('keeps an OXXO voucher pending with its reference and deadline, then paid hours later', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    const created = stripe.calls.findLast((call) => call.path === '/v1/checkout/sessions');
    expect(created?.body).toMatchObject({
      'allowed_payment_method_types[0]': 'card',
      'allowed_payment_method_types[1]': 'oxxo',
      'allowed_payment_method_types[2]': 'customer_balance',
      'payment_method_options[oxxo][expires_after_days]': '1',
      'payment_method_options[customer_balance][bank_transfer][type]': 'mx_bank_transfer',
    });
    expect(created?.body.customer).toMatch(/^cus_fake/);
    // As Stripe documents it: an OXXO voucher expires at 23:59 on Mexico City's clock (UTC-6 all year),
    // `expires_after_days` (1) days after today there (a deadline at another hour: the next test).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(Date.now());
    const deadline = (Date.parse(`${today}T23:59:59-06:00`) + 24 * HOUR) / 1000;
    await voucherChosen(answer, id, 'pi_oxxo_1', '12345678901234657890123456789012', deadline);
    const pending = await paymentOf(answer.id);
    expect(pending).toMatchObject({ status: 'pendiente', method: 'oxxo' });
    expect(pending?.voucher?.number).toBe('12345678901234657890123456789012');
    // The slot is held for the voucher, until its deadline and the grace after it (Stripe's next business day to
    // confirm a payment made at the store; then its job expires it).
    const [held] = await sql<{ hold_until: Date }>('SELECT hold_until FROM appointments WHERE id = $1', [answer.id]);
    const payBy = pending?.pay_by?.getTime() ?? 0;
    expect(held?.hold_until.getTime()).toBe(payBy + deadlineGraceMs('oxxo', payBy));
    expect(await appointmentStatus(answer.id)).toBe('por_pagar');
    const shown = await page(tokenOf(answer));
    expect(shown).toMatchObject({ notPayable: 'pending', payment: { status: 'pendiente', method: 'oxxo' } });
    expect((await checkout(tokenOf(answer))).status).toBe(409);

    await deliver(
      stripeEvent(
        'checkout.session.async_payment_succeeded',
        sessionObject(id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_oxxo_1' }),
      ),
    );
    expect(await paymentOf(answer.id)).toMatchObject({ status: 'pagado', method: 'oxxo' });
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
  });

  it('keeps the deadline Stripe states for a voucher when the checkout’s notice comes after it', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    // Stripe's word, at another hour than the one we would estimate (the checkout's notice can come after a
    // midnight in Mexico City, when our estimate moves a day): Stripe's stays, for the payment, the hold and the job.
    const stated = Math.floor((Date.now() + 40 * HOUR) / 1000);
    await voucherChosen(answer, id, 'pi_oxxo_stated', '98765432109876543210987654321098', stated);
    const [payment] = await sql<{ id: string; pay_by: Date }>(
      'SELECT id, pay_by FROM payments WHERE appointment_id = $1',
      [answer.id],
    );
    expect(payment?.pay_by.getTime()).toBe(stated * 1000);
    const [held] = await sql<{ hold_until: Date }>('SELECT hold_until FROM appointments WHERE id = $1', [answer.id]);
    expect(held?.hold_until.getTime()).toBe(stated * 1000 + deadlineGraceMs('oxxo', stated * 1000));
    const [job] = await sql<{ run_at: Date }>('SELECT run_at FROM graphile_worker.jobs WHERE key = $1', [
      `payment-deadline:${payment?.id}`,
    ]);
    expect(job?.run_at.getTime()).toBe(stated * 1000 + deadlineGraceMs('oxxo', stated * 1000));
  });

  it('frees the slot of a voucher that expires unpaid and tells the buyer on WhatsApp', async () => {
    const slot = await freeSlot(80, 24 * 20);
    const answer = await book(slot);
    const { id } = await opened(answer);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { payment_status: 'unpaid', payment_intent: 'pi_late' }),
      ),
    );
    expect((await paymentOf(answer.id))?.status).toBe('pendiente');
    await deliver(
      stripeEvent(
        'checkout.session.async_payment_failed',
        sessionObject(id, { status: 'complete', payment_status: 'unpaid' }),
      ),
    );
    expect((await paymentOf(answer.id))?.status).toBe('vencido');
    expect(await appointmentStatus(answer.id)).toBe('cancelada');
    // The buyer's WhatsApp: the cancellation's template, to their number.
    const to = `52${answer.phone}`;
    await untilValue(
      async () => platform.sent.filter((sent) => sent.to === to),
      (sent) => sent.some((message) => JSON.stringify(message.body).includes('cita_cancelada')),
      'the cancellation on WhatsApp',
    );
    // The slot is offered again.
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.parse(slot.start));
    const free = await fetch(
      `${server.url}/api/appointments/slots?kind=${KIND}&place=${PLACE}&from=${date}&to=${date}`,
    );
    const { slots } = (await free.json()) as { slots: FreeSlot[] };
    expect(slots.map((candidate) => candidate.start)).toContain(slot.start);
    expect((await page(tokenOf(answer))).notPayable).toBe('cancelled');
  });

  it('holds a voucher’s slot through the grace after its deadline, then frees it and tells the buyer', async () => {
    const slot = await freeSlot(80, 24 * 20);
    const answer = await book(slot);
    const { id } = await opened(answer);
    // Days later, as it were: the booking's own hold long over, and Stripe states a deadline that passed a minute ago,
    // so the voucher is in the grace its job waits for a late notice of payment.
    await sql(`UPDATE appointments SET hold_until = now() - interval '1 day' WHERE id = $1`, [answer.id]);
    const passed = Math.floor((Date.now() - 60_000) / 1000);
    await voucherChosen(answer, id, 'pi_oxxo_grace', '11112222333344445555666677778888', passed);
    // Another person after the same time is refused: the slot still waits for the voucher's payment.
    const other = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ name: 'Ana Canul', phone: uniquePhone(), kind: KIND, place: PLACE, start: slot.start }),
    });
    expect(other.status, await other.clone().text()).toBe(409);
    expect(await appointmentStatus(answer.id)).toBe('por_pagar');
    // The grace ends unpaid (its job's time moved to now: the queue, no waiting): the slot is freed, the buyer told.
    const [payment] = await sql<{ id: string }>('SELECT id FROM payments WHERE appointment_id = $1', [answer.id]);
    await sql(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [
      `payment-deadline:${payment?.id}`,
    ]);
    await untilValue(
      () => paymentOf(answer.id),
      (value) => value?.status === 'vencido',
      'the voucher expired',
    );
    expect(await appointmentStatus(answer.id)).toBe('cancelada');
    await untilValue(
      async () => platform.sent.filter((sent) => sent.to === `52${answer.phone}`),
      (sent) => sent.some((message) => JSON.stringify(message.body).includes('cita_cancelada')),
      'the cancellation on WhatsApp',
    );
  });

  it('waits for Stripe’s next business day for a voucher paid on its last day: the slot kept, the late notice confirms it', async () => {
    const slot = await freeSlot(80, 24 * 20);
    const answer = await book(slot);
    const { id } = await opened(answer);
    // Its deadline passed 20 minutes ago, past the 15 minutes a transfer is waited for: a voucher paid at the store
    // at the last minute is confirmed by Stripe as late as the next business day.
    await sql(`UPDATE appointments SET hold_until = now() - interval '1 day' WHERE id = $1`, [answer.id]);
    const passed = Math.floor((Date.now() - 20 * 60_000) / 1000);
    await voucherChosen(answer, id, 'pi_oxxo_last_day', '12121212343434345656565678787878', passed);
    const other = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ name: 'Ana Canul', phone: uniquePhone(), kind: KIND, place: PLACE, start: slot.start }),
    });
    expect(other.status, await other.clone().text()).toBe(409);
    const [payment] = await sql<{ id: string }>('SELECT id FROM payments WHERE appointment_id = $1', [answer.id]);
    const [job] = await sql<{ run_at: Date }>('SELECT run_at FROM graphile_worker.jobs WHERE key = $1', [
      `payment-deadline:${payment?.id}`,
    ]);
    expect(job?.run_at.getTime()).toBe(passed * 1000 + deadlineGraceMs('oxxo', passed * 1000));
    expect(job?.run_at.getTime()).toBeGreaterThan(Date.now() + 12 * HOUR);
    await deliver(
      stripeEvent(
        'checkout.session.async_payment_succeeded',
        sessionObject(id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_oxxo_last_day' }),
      ),
    );
    expect((await paymentOf(answer.id))?.status).toBe('pagado');
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
  });

  it('voids a cancelled appointment’s voucher and open checkout at Stripe; a payment that still comes is shown as such', async () => {
    // The team cancels an appointment whose OXXO voucher waits: voided at Stripe, no longer shown to pay.
    const voucher = await book(await freeSlot(80, 24 * 20));
    const opening = await opened(voucher);
    const future = Math.floor((Date.now() + 30 * HOUR) / 1000);
    await voucherChosen(voucher, opening.id, 'pi_oxxo_void', '99998888777766665555444433332222', future);
    expect((await page(tokenOf(voucher))).notPayable).toBe('pending');
    const cancelled = await fetch(`${server.url}/api/admin/appointments/${voucher.id}/cancel`, {
      method: 'POST',
      headers: { Cookie: await adminCookie(), Origin: originOf(server.url), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    await untilValue(
      () => paymentOf(voucher.id),
      (value) => value?.status === 'vencido',
      'the voucher of the cancelled appointment expired',
    );
    expect(stripe.calls.some((call) => call.path === '/v1/payment_intents/pi_oxxo_void/cancel')).toBe(true);
    expect(await page(tokenOf(voucher))).toMatchObject({ notPayable: 'cancelled', appointmentStatus: 'cancelada' });
    // Paid all the same (a notice already on its way): on record, and the page does not say the appointment holds.
    await deliver(
      stripeEvent(
        'checkout.session.async_payment_succeeded',
        sessionObject(opening.id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_oxxo_void' }),
      ),
    );
    expect((await paymentOf(voucher.id))?.status).toBe('pagado');
    expect(await appointmentStatus(voucher.id)).toBe('cancelada');
    expect(await page(tokenOf(voucher))).toMatchObject({ notPayable: 'paid', appointmentStatus: 'cancelada' });
    // The contact is due now, on "Hoy", so the team books again or gives the money back.
    const [due] = await sql<{ due: boolean }>(
      `SELECT c.next_contact_at <= now() AS due FROM contacts c JOIN appointments a ON a.contact_id = c.id WHERE a.id = $1`,
      [voucher.id],
    );
    expect(due?.due).toBe(true);

    // The buyer cancels with a checkout still open: it is expired at Stripe, so it can no longer be paid.
    const open = await book(await freeSlot(80, 24 * 20));
    const session = await opened(open);
    const cancel = await fetch(`${server.url}/api/appointments/manage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ t: manageToken(open.id, Date.parse(open.start) + DAY), action: 'cancelar' }),
    });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    await untilValue(
      () => paymentOf(open.id),
      (value) => value?.status === 'vencido',
      'the open checkout of the cancelled appointment expired',
    );
    expect(stripe.sessions.get(session.id)?.status).toBe('expired');

    // The buyer chose OXXO (the checkout completes unpaid) and the team cancels before the notices are applied:
    // the voucher is voided at Stripe all the same.
    const chosen = await book(await freeSlot(80, 24 * 20));
    const choosing = await opened(chosen);
    Object.assign(stripe.sessions.get(choosing.id) ?? {}, {
      status: 'complete',
      payment_status: 'unpaid',
      payment_intent: 'pi_oxxo_unapplied',
    });
    const dropped = await fetch(`${server.url}/api/admin/appointments/${chosen.id}/cancel`, {
      method: 'POST',
      headers: { Cookie: await adminCookie(), Origin: originOf(server.url), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(dropped.status, await dropped.clone().text()).toBe(200);
    await untilValue(
      () => paymentOf(chosen.id),
      (value) => value?.status === 'vencido',
      'the chosen voucher of the cancelled appointment expired',
    );
    expect(stripe.calls.some((call) => call.path === '/v1/payment_intents/pi_oxxo_unapplied/cancel')).toBe(true);
  });

  it('keeps the furthest state when events come out of order', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    const succeeded = stripeEvent(
      'checkout.session.async_payment_succeeded',
      sessionObject(id, { payment_status: 'paid', payment_intent: 'pi_order' }),
    );
    const completed = stripeEvent(
      'checkout.session.completed',
      sessionObject(id, { payment_status: 'unpaid', payment_intent: 'pi_order' }),
    );
    const expired = stripeEvent('checkout.session.expired', sessionObject(id, { status: 'expired' }));
    for (const event of [succeeded, completed, expired]) await deliver(event);
    expect((await paymentOf(answer.id))?.status).toBe('pagado');
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
  });

  it('refunds a paid appointment the buyer cancels within the kind’s policy', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { payment_status: 'paid', payment_intent: 'pi_refund' }),
      ),
    );
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
    // The buyer's page says, before they cancel, that the payment comes back until 24 hours before.
    const shown = await fetch(
      `${server.url}/api/appointments/manage?t=${manageToken(answer.id, Date.parse(answer.start) + DAY)}`,
    );
    expect((await shown.json()).paid).toEqual({
      amountMxn: 499,
      refundUntil: new Date(Date.parse(answer.start) - DAY).toISOString(),
    });
    const cancel = await fetch(`${server.url}/api/appointments/manage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ t: manageToken(answer.id, Date.parse(answer.start) + DAY), action: 'cancelar' }),
    });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    // The refund is asked of Stripe by the queue, once, keyed by the payment.
    await until(
      () => stripe.calls.some((call) => call.path === '/v1/refunds' && call.body.payment_intent === 'pi_refund'),
      'the refund asked of Stripe',
    );
    const refund = stripe.calls.find((call) => call.path === '/v1/refunds' && call.body.payment_intent === 'pi_refund');
    expect(refund?.idempotencyKey).toMatch(/^refund:/);
    // Stripe's word that the money went back.
    await deliver(
      stripeEvent('charge.refunded', {
        id: 'ch_refund',
        object: 'charge',
        payment_intent: 'pi_refund',
        amount: 49900,
        amount_refunded: 49900,
        refunded: true,
        metadata: { appointment_id: answer.id },
      }),
    );
    expect((await paymentOf(answer.id))?.status).toBe('reembolsado');
    expect((await page(tokenOf(answer))).payment?.status).toBe('reembolsado');
  });

  it('refunds a paid appointment the team cancels, and not one the buyer cancels inside the kind’s policy', async () => {
    // The team cancels: the buyer is refunded whatever the time left.
    const team = await book(await freeSlot(14, 24 * 20));
    const { id } = await opened(team);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { payment_status: 'paid', payment_intent: 'pi_team' }),
      ),
    );
    const cookie = await adminCookie();
    const cancelled = await fetch(`${server.url}/api/admin/appointments/${team.id}/cancel`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(await appointmentStatus(team.id)).toBe('cancelada');
    await until(
      () => stripe.calls.some((call) => call.path === '/v1/refunds' && call.body.payment_intent === 'pi_team'),
      'the team’s refund asked of Stripe',
    );
    const again = await fetch(`${server.url}/api/admin/appointments/${team.id}/cancel`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(await again.json()).toMatchObject({ status: 'cancelada', changed: false });
    const signedOut = await fetch(`${server.url}/api/admin/appointments/${team.id}/cancel`, {
      method: 'POST',
      headers: { Origin: originOf(server.url) },
    });
    expect(signedOut.status).toBe(401);

    // The buyer cancels with less than the kind's 24 hours left: no refund, and the history says why.
    const late = await book(await freeSlot(14, 24 * 20));
    const opening = await opened(late);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(opening.id, { payment_status: 'paid', payment_intent: 'pi_late_cancel' }),
      ),
    );
    // Five hours before its start: past the refund's 24 hours, within the cutoff's 2 (whatever the clock says now).
    await sql(
      `UPDATE appointments SET starts_at = now() + interval '5 hours', ends_at = now() + interval '5.5 hours',
         blocked = tstzrange(now() + interval '5 hours', now() + interval '5.75 hours') WHERE id = $1`,
      [late.id],
    );
    // Its page says so before they cancel: past the refund's window.
    const lateShown = await fetch(
      `${server.url}/api/appointments/manage?t=${manageToken(late.id, Date.parse(late.start) + DAY)}`,
    );
    expect((await lateShown.json()).paid).toEqual({ amountMxn: 499, refundUntil: null });
    const cancel = await fetch(`${server.url}/api/appointments/manage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ t: manageToken(late.id, Date.parse(late.start) + DAY), action: 'cancelar' }),
    });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    const [line] = await sql<{ detail: string }>(
      `SELECT e.detail FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
       WHERE a.id = $1 AND e.kind = 'payment' AND e.to_value = 'Sin reembolso'`,
      [late.id],
    );
    expect(line?.detail).toBe('La persona canceló con menos de 24 h de anticipación: no se reembolsa.');
    expect(
      await countRows('payments', `appointment_id = $1 AND refund_requested_at IS NULL AND status = 'pagado'`, [
        late.id,
      ]),
    ).toBe(1);
    expect(
      stripe.calls.some((call) => call.path === '/v1/refunds' && call.body.payment_intent === 'pi_late_cancel'),
    ).toBe(false);
  });

  it('does not refund a paid appointment the buyer moved once its refund window closed, then cancelled', async () => {
    const answer = await book(await freeSlot(14, 24 * 20));
    const opening = await opened(answer);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(opening.id, { payment_status: 'paid', payment_intent: 'pi_moved_late' }),
      ),
    );
    // Ten hours before its start: past the refund's 24 hours, before the 2-hour cutoff for a move.
    await sql(
      `UPDATE appointments SET starts_at = now() + interval '10 hours', ends_at = now() + interval '10.5 hours',
         blocked = tstzrange(now() + interval '10 hours', now() + interval '10.75 hours') WHERE id = $1`,
      [answer.id],
    );
    const token = manageToken(answer.id, Date.parse(answer.start) + 30 * DAY);
    const later = await freeSlot(80, 24 * 20);
    const moved = await fetch(`${server.url}/api/appointments/manage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ t: token, action: 'reprogramar', start: later.start }),
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const { token: fresh } = (await moved.json()) as { token: string };
    // Days ahead of its new time, cancelled: still no refund, and the history says why.
    const cancel = await fetch(`${server.url}/api/appointments/manage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ t: fresh, action: 'cancelar' }),
    });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    const [line] = await sql<{ detail: string }>(
      `SELECT e.detail FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
       WHERE a.id = $1 AND e.kind = 'payment' AND e.to_value = 'Sin reembolso'`,
      [answer.id],
    );
    expect(line?.detail).toBe(
      'La persona cambió la cita cuando faltaban menos de 24 h y luego la canceló: no se reembolsa.',
    );
    expect(
      await countRows('payments', `appointment_id = $1 AND refund_requested_at IS NULL AND status = 'pagado'`, [
        answer.id,
      ]),
    ).toBe(1);
    expect(
      stripe.calls.some((call) => call.path === '/v1/refunds' && call.body.payment_intent === 'pi_moved_late'),
    ).toBe(false);
  });

  it('applies an event while Stripe hangs on every refund the queue asks for', async () => {
    const paid = await book(await freeSlot(14, 24 * 20));
    const first = await opened(paid);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(first.id, { payment_status: 'paid', payment_intent: 'pi_hanging_refunds' }),
      ),
    );
    // Stripe stops answering refunds, and the queue asks for as many as the calls to Stripe have slots.
    const hanging = stripe.holdRefunds();
    try {
      const [payment] = await sql<{ id: string }>('SELECT id FROM payments WHERE appointment_id = $1', [paid.id]);
      await sql(
        `SELECT graphile_worker.add_job('${PAYMENT_REFUND_TASK}', json_build_object('paymentId', $1::text))
         FROM generate_series(1, $2)`,
        [payment?.id, CONCURRENCY],
      );
      await until(() => hanging.open() === CONCURRENCY, 'every slot waiting on Stripe');
      // Meanwhile another buyer pays: the event is applied while those refunds still wait (each for up to
      // the SDK's 10 s timeout): it never queues behind them.
      const next = await book(await freeSlot(14, 24 * 20));
      const second = await opened(next);
      await deliver(
        stripeEvent(
          'checkout.session.completed',
          sessionObject(second.id, { payment_status: 'paid', payment_intent: 'pi_behind_refunds' }),
        ),
      );
      expect(hanging.open()).toBe(CONCURRENCY);
      expect(await appointmentStatus(next.id)).toBe('confirmada');
    } finally {
      hanging.release();
    }
  });

  it('expires a transfer still unpaid at its deadline: cancelled at Stripe, the slot freed', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    await deliver(stripeEvent('payment_intent.requires_action', speiIntent('pi_spei_1', answer.id, 49900)));
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { payment_status: 'unpaid', payment_intent: 'pi_spei_1' }),
      ),
    );
    const pending = await paymentOf(answer.id);
    expect(pending).toMatchObject({ status: 'pendiente', method: 'spei' });
    expect(pending?.voucher).toMatchObject({ clabe: '002010077777777771', reference: '123456' });
    // The transfer's instructions came first, without a deadline: the slot is held for the cash days, not until
    // the visit's start (three days and more ahead here).
    const [held] = await sql<{ pay_by: Date; starts_at: Date }>(
      'SELECT p.pay_by, a.starts_at FROM payments p JOIN appointments a ON a.id = p.appointment_id WHERE a.id = $1',
      [answer.id],
    );
    expect(new Date(held?.pay_by as Date).getTime()).toBeLessThan(Date.now() + 2 * DAY);
    expect(new Date(held?.starts_at as Date).getTime()).toBeGreaterThan(Date.now() + 3 * DAY);
    await pastDeadline(answer.id);
    expect(stripe.calls.some((call) => call.path === '/v1/payment_intents/pi_spei_1/cancel')).toBe(true);
    expect(await appointmentStatus(answer.id)).toBe('cancelada');
  });

  it('keeps a transfer of less than the amount pending: what arrived and what is missing on the page and the history', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    await deliver(stripeEvent('payment_intent.requires_action', speiIntent('pi_spei_2', answer.id, 49900)));
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { payment_status: 'unpaid', payment_intent: 'pi_spei_2' }),
      ),
    );
    // $299 of the $499 arrived (Stripe's payment_intent.partially_funded).
    await deliver(stripeEvent('payment_intent.partially_funded', speiIntent('pi_spei_2', answer.id, 20000)));
    expect(await paymentOf(answer.id)).toMatchObject({
      status: 'pendiente',
      method: 'spei',
      voucher: { clabe: '002010077777777771', receivedMxn: 299, remainingMxn: 200 },
    });
    expect(await appointmentStatus(answer.id)).toBe('por_pagar');
    expect(await page(tokenOf(answer))).toMatchObject({
      notPayable: 'pending',
      payment: { status: 'pendiente', voucher: { receivedMxn: 299, remainingMxn: 200, reference: '123456' } },
    });
    const history = async () =>
      sql<{ to_value: string; detail: string }>(
        `SELECT e.to_value, e.detail FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
         WHERE a.id = $1 ORDER BY e.created_at, e.id`,
        [answer.id],
      );
    expect(await history()).toContainEqual({
      to_value: 'Pago incompleto',
      detail: expect.stringContaining('llegaron $299 MXN de $499 MXN por transferencia SPEI; faltan $200 MXN'),
    });
    // The rest never came: expired, the slot freed, and the history says to give back what arrived.
    await pastDeadline(answer.id);
    expect(await appointmentStatus(answer.id)).toBe('cancelada');
    // The buyer's cancellation message lands on the history too, in the background: the line is looked up, not taken last.
    expect(await history()).toContainEqual({
      to_value: 'cancelada',
      detail: expect.stringContaining('llegaron $299 MXN de la transferencia: devuélveselos a la persona desde Stripe'),
    });
  });

  it('says to give back part of a transfer whose appointment the team cancelled, and makes the contact due', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    await deliver(stripeEvent('payment_intent.requires_action', speiIntent('pi_spei_3', answer.id, 49900)));
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { payment_status: 'unpaid', payment_intent: 'pi_spei_3' }),
      ),
    );
    await deliver(stripeEvent('payment_intent.partially_funded', speiIntent('pi_spei_3', answer.id, 20000)));
    const cancelled = await fetch(`${server.url}/api/admin/appointments/${answer.id}/cancel`, {
      method: 'POST',
      headers: { Cookie: await adminCookie(), Origin: originOf(server.url), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    await untilValue(
      () => paymentOf(answer.id),
      (value) => value?.status === 'vencido',
      'the transfer of the cancelled appointment expired',
    );
    const [contact] = await sql<{ due: boolean; lines: string[] }>(
      `SELECT c.next_contact_at <= now() AS due,
              array(SELECT e.detail FROM contact_events e WHERE e.contact_id = c.id AND e.kind = 'payment') AS lines
       FROM appointments a JOIN contacts c ON c.id = a.contact_id WHERE a.id = $1`,
      [answer.id],
    );
    expect(contact?.lines).toContainEqual(
      expect.stringContaining('llegaron $299 MXN de una transferencia que venció sin completarse: devuélveselos'),
    );
    expect(contact?.due).toBe(true);
  });

  it('says how much a transfer left in the person’s balance at Stripe when no payment took it, and makes the contact due', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    await opened(answer);
    const [customer] = await sql<{ id: string; customer: string }>(
      'SELECT c.id, c.payment_customer AS customer FROM appointments a JOIN contacts c ON c.id = a.contact_id WHERE a.id = $1',
      [answer.id],
    );
    expect(customer?.customer).toMatch(/^cus_/);
    // Stripe's cash balance after its reconciliation: $499 with no payment waiting (the transfer came after the expiry).
    const balance = (customerId: string, mxn: number) =>
      stripeEvent('cash_balance.funds_available', {
        object: 'cash_balance',
        available: { mxn },
        customer: customerId,
        livemode: false,
        settings: { reconciliation_mode: 'automatic', using_merchant_default: true },
      });
    await deliver(balance(customer?.customer ?? '', 49900));
    const [contact] = await sql<{ due: boolean; lines: string[] }>(
      `SELECT c.next_contact_at <= now() AS due,
              array(SELECT e.detail FROM contact_events e WHERE e.contact_id = c.id AND e.to_value = 'Saldo a favor') AS lines
       FROM contacts c WHERE c.id = $1`,
      [customer?.id],
    );
    expect(contact?.lines).toEqual([expect.stringContaining('Hay $499 MXN de la persona en su saldo de Stripe')]);
    expect(contact?.due).toBe(true);
    // Closed as lost meanwhile: the money reopens them, so that they are due (a closed contact never is).
    await sql(
      `UPDATE contacts SET state = 'cerrado_perdido', lost_reason = 'no_responde', next_contact_at = NULL WHERE id = $1`,
      [customer?.id],
    );
    await deliver(balance(customer?.customer ?? '', 20000));
    expect(
      await sql('SELECT state, next_contact_at <= now() AS due FROM contacts WHERE id = $1', [customer?.id]),
    ).toEqual([{ state: 'nuevo', due: true }]);
    // Another account's customer, or an empty balance: nothing of ours, nothing written.
    const before = await countRows('contact_events', "to_value = 'Saldo a favor'");
    await deliver(balance('cus_not_ours', 10000));
    await deliver(balance(customer?.customer ?? '', 0));
    expect(await countRows('contact_events', "to_value = 'Saldo a favor'")).toBe(before);
  });

  it('tells the kept contact of money in the balance of the customer a merge left behind', async () => {
    // Two people who each opened a cash checkout (each a customer at Stripe with its CLABE), then one person.
    const [first, second] = [await book(await freeSlot(80, 24 * 20)), await book(await freeSlot(80, 24 * 20))];
    await opened(first);
    await opened(second);
    const customers = await sql<{ id: string; phone: string; customer: string }>(
      `SELECT c.id, c.phone, c.payment_customer AS customer FROM appointments a JOIN contacts c ON c.id = a.contact_id
       WHERE a.id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], a.id)`,
      [[first.id, second.id]],
    );
    const [kept, gone] = customers;
    expect(kept?.customer).toMatch(/^cus_/);
    expect(gone?.customer).toMatch(/^cus_/);
    expect(gone?.customer).not.toBe(kept?.customer);
    const admin = await adminCookie();
    const panel = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { Cookie: admin, Origin: originOf(server.url), 'Content-Type': 'application/json' },
      });
    const { version } = (await (await panel(`/api/admin/contacts/${kept?.id}`)).json()) as { version: number };
    const merged = await panel(`/api/admin/contacts/${kept?.id}/merge`, {
      method: 'POST',
      body: JSON.stringify({ from: gone?.id, name: 'Lucía Pérez', phone: kept?.phone, email: null, version }),
    });
    expect(merged.status, await merged.clone().text()).toBe(200);

    // A late transfer to the CLABE of the person merged away: the kept contact is told, and due.
    await deliver(
      stripeEvent('cash_balance.funds_available', {
        object: 'cash_balance',
        available: { mxn: 49900 },
        customer: gone?.customer,
        livemode: false,
        settings: { reconciliation_mode: 'automatic', using_merchant_default: true },
      }),
    );
    const [contact] = await sql<{ due: boolean; lines: string[] }>(
      `SELECT c.next_contact_at <= now() AS due,
              array(SELECT e.detail FROM contact_events e WHERE e.contact_id = c.id AND e.to_value = 'Saldo a favor') AS lines
       FROM contacts c WHERE c.id = $1`,
      [kept?.id],
    );
    expect(contact?.lines).toEqual([expect.stringContaining('Hay $499 MXN de la persona en su saldo de Stripe')]);
    expect(contact?.due).toBe(true);
  });
});

describe('the panel', () => {
  it('lists the payments with their totals to members, filters them, and exports them as CSV to administrators only', async () => {
    const answer = await book(await freeSlot(14, 71));
    const { id } = await opened(answer);
    await deliver(
      stripeEvent(
        'checkout.session.completed',
        sessionObject(id, { payment_status: 'paid', payment_intent: 'pi_panel' }),
      ),
    );
    const admin = await adminCookie();
    const adviser = await inviteAdviser(server.url, admin, 'asesor.pagos@ceiba.mx', 'Raúl Uc');
    expect((await fetch(`${server.url}/api/admin/payments`)).status).toBe(401);

    const list = await fetch(`${server.url}/api/admin/payments?status=pagado`, { headers: { Cookie: adviser.cookie } });
    expect(list.status).toBe(200);
    const page = (await list.json()) as import('../../src/lib/payments/panel.ts').PaymentsPage;
    const mine = page.items.find((item) => item.appointment.id === answer.id);
    expect(mine).toMatchObject({
      status: 'pagado',
      method: 'tarjeta',
      amountMxn: 499,
      contact: { name: 'Lucía Pérez' },
    });
    expect(page.items.every((item) => item.status === 'pagado')).toBe(true);
    expect(page.totals.paid).toBeGreaterThanOrEqual(1);
    expect(page.totals.paidMxn).toBe(page.totals.paid * 499);
    expect(
      (await fetch(`${server.url}/api/admin/payments?status=regalado`, { headers: { Cookie: adviser.cookie } })).status,
    ).toBe(400);

    // The contact's appointments say it is paid.
    const [contact] = await sql<{ contact_id: string }>('SELECT contact_id FROM appointments WHERE id = $1', [
      answer.id,
    ]);
    const citas = await fetch(`${server.url}/api/admin/appointments?contact=${contact?.contact_id}`, {
      headers: { Cookie: adviser.cookie },
    });
    expect(citas.status).toBe(200);
    const { items } = (await citas.json()) as { items: { id: string; payment: unknown }[] };
    expect(items.find((item) => item.id === answer.id)?.payment).toEqual({ status: 'pagado', method: 'tarjeta' });

    // Their data, as the person may ask for it (ARCO): the appointment and its payment are in it.
    const data = (await (
      await fetch(`${server.url}/api/admin/contacts/${contact?.contact_id}/datos.json`, { headers: { Cookie: admin } })
    ).json()) as { appointments: { id: string }[]; payments: { status: string; session_id: string }[] };
    expect(data.appointments.map((row) => row.id)).toContain(answer.id);
    expect(data.payments).toEqual([expect.objectContaining({ status: 'pagado', session_id: id })]);

    // Métricas count the paid consultations; the pipeline shows what the contact paid next to the estimate.
    const metrics = (await (await fetch(`${server.url}/api/admin/metrics`, { headers: { Cookie: admin } })).json()) as {
      payments: { paid: number; paidMxn: number; paidContacts: number; conversion: number | null };
    };
    expect(metrics.payments.paid).toBeGreaterThanOrEqual(1);
    expect(metrics.payments.paidMxn).toBe(metrics.payments.paid * 499);
    expect(metrics.payments.conversion).toBe(0);
    const board = (await (await fetch(`${server.url}/api/admin/pipeline`, { headers: { Cookie: admin } })).json()) as {
      columns: { items: { id: string; paid: number }[] }[];
    };
    const card = board.columns.flatMap((column) => column.items).find((item) => item.id === contact?.contact_id);
    expect(card?.paid).toBe(499);
    expect(
      (await fetch(`${server.url}/api/admin/payments/export.csv`, { headers: { Cookie: adviser.cookie } })).status,
    ).toBe(403);
    const csv = await fetch(`${server.url}/api/admin/payments/export.csv?status=pagado`, {
      headers: { Cookie: admin },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text).toContain('Fecha,Estado,Forma de pago,Monto (MXN)');
    expect(text).toContain('Pagado,Tarjeta,499');
    expect(text).toContain(id);
  });

  it('keeps an OXXO payment to give back by hand out of what was collected until an administrator records it', async () => {
    const answer = await book(await freeSlot(80, 24 * 20));
    const { id } = await opened(answer);
    await voucherChosen(
      answer,
      id,
      'pi_oxxo_hand',
      '55554444333322221111000099998888',
      Math.floor((Date.now() + 30 * HOUR) / 1000),
    );
    await deliver(
      stripeEvent(
        'checkout.session.async_payment_succeeded',
        sessionObject(id, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_oxxo_hand' }),
      ),
    );
    expect(await appointmentStatus(answer.id)).toBe('confirmada');
    const admin = await adminCookie();
    const headers = { Cookie: admin, Origin: originOf(server.url), 'Content-Type': 'application/json' };
    const cancelled = await fetch(`${server.url}/api/admin/appointments/${answer.id}/cancel`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(cancelled.status).toBe(200);
    // Stripe cannot refund OXXO: the history tells the team to give it back by transfer.
    await until(
      async () =>
        (await countRows(
          'contact_events e JOIN appointments a ON a.contact_id = e.contact_id',
          `a.id = $1 AND e.kind = 'payment' AND e.to_value = 'Reembolso manual'`,
          [answer.id],
        )) === 1,
      'the refund by hand asked',
    );
    const listed = async () => {
      const response = await fetch(`${server.url}/api/admin/payments?status=pagado`, { headers: { Cookie: admin } });
      return (await response.json()) as import('../../src/lib/payments/panel.ts').PaymentsPage;
    };
    const before = await listed();
    const item = before.items.find((candidate) => candidate.appointment.id === answer.id);
    expect(item).toMatchObject({ status: 'pagado', method: 'oxxo', refund: { byHand: true } });
    expect(before.totals.refunding).toBeGreaterThanOrEqual(1);
    expect(before.totals.paidMxn).toBe(before.totals.paid * 499);

    const done = (cookie: string, origin = originOf(server.url)) =>
      fetch(`${server.url}/api/admin/payments/${item?.id}/devuelto`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/json' },
        body: '{}',
      });
    const adviser = await inviteAdviser(server.url, admin, 'asesora.devoluciones@ceiba.mx', 'Rosa May');
    expect((await done('')).status).toBe(401);
    expect((await done(adviser.cookie)).status).toBe(403);
    expect((await done(admin, 'https://otro.example')).status).toBe(403);
    const recorded = await done(admin);
    expect(recorded.status, await recorded.clone().text()).toBe(200);
    expect((await paymentOf(answer.id))?.status).toBe('reembolsado');
    expect(
      await countRows('activity_log', `kind = 'payment_refunded' AND details ->> 'payment' = $1`, [item?.id]),
    ).toBe(1);
    const after = await listed();
    expect(after.items.some((candidate) => candidate.id === item?.id)).toBe(false);
    expect(after.totals.refunding).toBe(before.totals.refunding - 1);
    // Once only; and never for a payment Stripe refunds itself.
    const again = await done(admin);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: 'Este pago no espera una devolución a mano: Stripe confirma las de tarjeta y SPEI.',
    });
  });
});
