// @vitest-environment happy-dom
import { act, screen } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, expect, onTestFinished, test, vi } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { renderPanel } from '../../../../tests/support/panel-render.tsx';
import type { CalendarItem } from '../../../lib/appointments/panel.ts';
import { AppointmentItem } from './AppointmentItem.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());

const ANA = { id: 'a1b2c3d4-0000-4000-8000-000000000001', name: 'Ana Canul' };
const BETO = { id: 'a1b2c3d4-0000-4000-8000-000000000002', name: 'Beto Chan' };
beforeEach(() => {
  api.reset();
  api.on('GET /api/auth/session', {
    body: { user: { id: ANA.id, email: 'ana@ceiba.mx', name: ANA.name, role: 'asesor' }, admin: false },
  });
});

const HOUR = 3_600_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();
const item = (fields: Partial<CalendarItem>): CalendarItem => ({
  id: '0b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e',
  start: at(HOUR),
  end: at(2 * HOUR),
  status: 'confirmada',
  source: 'panel',
  kind: 'visita-casa-muestra',
  kindName: 'Visita a la casa muestra',
  place: 'casa-muestra-merida',
  placeName: 'Casa muestra Mérida',
  placeTimeZone: 'America/Merida',
  contact: { id: '1b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e', name: 'Elena Poot' },
  member: ANA,
  priceMxn: null,
  holdUntil: null,
  payment: null,
  ...fields,
});

test('"Asistió" / "No asistió" appear at the start on a page left open before it, without a reload', async () => {
  // The clock is the test's: the page is drawn an hour ahead of the start, then the hour passes at once (a
  // start a second away on the real clock could pass before a busy machine has drawn the page).
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  renderPanel(api, <AppointmentItem item={item({})} />);
  expect(await screen.findByRole('button', { name: /Cancelar/ })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Asistió' })).toBeNull();
  act(() => {
    vi.advanceTimersByTime(HOUR + 1000);
  });
  expect(await screen.findByRole('button', { name: 'Asistió' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'No asistió' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Cancelar/ })).toBeNull();
});

test('an unpaid hold past its time says so and offers nothing to do', async () => {
  renderPanel(api, <AppointmentItem item={item({ status: 'por_pagar', priceMxn: 499, holdUntil: at(-60_000) })} />);
  expect(await screen.findByText('Apartado vencido')).toBeTruthy();
  expect(screen.queryByText('Por pagar')).toBeNull();
  expect(screen.queryByRole('button')).toBeNull();
});

test('an adviser sees no "Cancelar" nor attendance on another adviser’s appointment; an administrator does', async () => {
  const both = (
    <>
      <AppointmentItem item={item({ id: 'mine', contact: { id: 'c1', name: 'Elena Poot' } })} />
      <AppointmentItem item={item({ id: 'his', member: BETO, contact: { id: 'c2', name: 'Iván Caamal' } })} />
    </>
  );
  const view = renderPanel(api, both);
  // The session read (her own appointment offers "Cancelar"), Beto's offers her nothing.
  expect(await screen.findByRole('button', { name: /Cancelar.*Elena Poot/ })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Iván Caamal/ })).toBeNull();
  expect(screen.getAllByRole('button')).toHaveLength(1);
  view.unmount();
  api.on('GET /api/auth/session', {
    body: {
      user: { id: 'a1b2c3d4-0000-4000-8000-000000000009', email: 'admin@ceiba.mx', name: 'Ada', role: 'admin' },
      admin: true,
    },
  });
  renderPanel(api, both);
  expect(await screen.findByRole('button', { name: /Cancelar.*Iván Caamal/ })).toBeTruthy();
});
