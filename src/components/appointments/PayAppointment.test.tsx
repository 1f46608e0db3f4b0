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

/** The page's answer while Stripe's webhook has not come: the checkout still open. */
const open: PaymentPageAnswer = {
  kind: 'Asesoría personalizada',
  place: 'Videollamada',
  when: 'miércoles 2 de diciembre de 2026, 10:00 (hora de Mérida)',
  priceMxn: 499,
  appointmentStatus: 'por_pagar',
  holdUntil: '2026-12-02T15:00:00.000Z',
  payment: { status: 'abierto', method: null, payBy: null, voucher: null },
  notPayable: null,
};

test('back from Stripe, a payment not confirmed after every ask says so, with a way to ask again and to reach us', async () => {
  api.on('GET /api/pagos/estado', { body: open });
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `${api.origin}/pagar?t=v1.token&estado=listo`,
  );
  render(
    <PayAppointment chatLink="https://wa.me/529995550123" bookLink="/modelos" polling={{ everyMs: 5, times: 3 }} />,
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
