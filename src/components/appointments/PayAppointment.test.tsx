// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../tests/support/panel-api.ts';
import type { PaymentPageAnswer } from '../../lib/payments/words.ts';
import PayAppointment from './PayAppointment.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());

const BOOK_LINKS = { compradores: '/modelos', socios: '/prefiltro-socios' };

/** The page's answer while Stripe's webhook has not come: the checkout still open. */
const open: PaymentPageAnswer = {
  kind: 'Asesoría personalizada',
  place: 'Videollamada',
  when: 'miércoles 2 de diciembre de 2026, 10:00 (hora de Mérida)',
  priceMxn: 499,
  appointmentStatus: 'por_pagar',
  holdUntil: '2026-12-02T15:00:00.000Z',
  timeZone: 'America/Merida',
  audience: 'compradores',
  payment: { status: 'abierto', method: null, payBy: null, voucher: null },
  notPayable: null,
};

test('back from Stripe, a payment not confirmed after every ask says so, with a way to ask again and to reach us', async () => {
  api.on('GET /api/pagos/estado', { body: open });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `${api.origin}/pagar?t=v1.token&estado=listo`,
  );
  render(
    <PayAppointment chatLink="https://wa.me/529995550123" bookLinks={BOOK_LINKS} polling={{ everyMs: 5, times: 3 }} />,
  );
  expect(await screen.findByText(/Estamos confirmando tu pago/)).toBeTruthy();
  // Asked its times, then no more "se actualiza sola" for ever.
  expect(await screen.findByText(/Tu pago todavía no se confirma/)).toBeTruthy();
  expect(screen.queryByText(/Estamos confirmando tu pago/)).toBeNull();
  expect(screen.getByRole('link', { name: 'Escríbenos por WhatsApp' }).getAttribute('href')).toBe(
    'https://wa.me/529995550123',
  );
  const asked = api.requests.length;
  // Paid meanwhile: asked again, the page says so.
  api.on('GET /api/pagos/estado', {
    body: {
      ...open,
      appointmentStatus: 'confirmada',
      holdUntil: null,
      notPayable: 'paid',
      payment: { ...open.payment, status: 'pagado', method: 'tarjeta' },
    },
  });
  await userEvent.click(screen.getByRole('button', { name: 'Revisar de nuevo' }));
  expect(await screen.findByText('¡Pago recibido!')).toBeTruthy();
  expect(api.requests.length).toBeGreaterThan(asked);
});

test("a partner session held for its payment says until when on the session's own clock, and books again where partners do", async () => {
  const berlin: PaymentPageAnswer = {
    ...open,
    kind: 'Sesión de socios',
    place: 'Videollamada desde Berlín',
    when: 'viernes 4 de diciembre de 2026, 10:00 (hora de Berlín)',
    priceMxn: 899,
    holdUntil: '2026-12-02T15:00:00.000Z',
    timeZone: 'Europe/Berlin',
    audience: 'socios',
    payment: null,
  };
  api.on('GET /api/pagos/estado', { body: berlin });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${api.origin}/pagar?t=v1.token`);
  const { unmount } = render(<PayAppointment chatLink="https://wa.me/529995550123" bookLinks={BOOK_LINKS} />);
  // 15:00 UTC is 16:00 in Berlin (winter), not Mexico City's 09:00.
  expect(await screen.findByText(/apartado hasta el miércoles, 2 de diciembre, 16:00 \(hora de Berlín\)/)).toBeTruthy();
  unmount();
  // Its hold over: another session is booked from the partners' page, not the buyers' models.
  api.on('GET /api/pagos/estado', { body: { ...berlin, holdUntil: null, notPayable: 'expired' } });
  render(<PayAppointment chatLink="https://wa.me/529995550123" bookLinks={BOOK_LINKS} />);
  expect((await screen.findByRole('link', { name: 'Agendar otra cita' })).getAttribute('href')).toBe(
    '/prefiltro-socios',
  );
});
