// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, expect, onTestFinished, test, vi } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { renderPanel, toasts } from '../../../../tests/support/panel-render.tsx';
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
  // The session read (her own appointment offers "Reprogramar" and "Cancelar"), Beto's offers her nothing.
  expect(await screen.findByRole('button', { name: /Cancelar.*Elena Poot/ })).toBeTruthy();
  expect(screen.getByRole('button', { name: /Reprogramar.*Elena Poot/ })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Iván Caamal/ })).toBeNull();
  expect(screen.getAllByRole('button')).toHaveLength(2);
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

/** The move's slots as the server answers them (its current start already left out). */
function moveSlots(id: string, starts: string[]) {
  api.on(`GET /api/admin/appointments/${id}/slots`, {
    body: {
      kind: 'visita-casa-muestra',
      place: 'casa-muestra-merida',
      timeZone: 'America/Merida',
      durationMinutes: 60,
      slots: starts.map((start) => ({ start, end: new Date(Date.parse(start) + HOUR).toISOString() })),
    },
  });
}

/** 10:00 and 11:00 in Mérida (UTC-6 all year) two days ahead: one day of the picker whatever the hour now. */
function twoSlots(): [string, string] {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + 48 * HOUR);
  return [`${day}T16:00:00.000Z`, `${day}T17:00:00.000Z`];
}

test('"Reprogramar" offers the free slots of its move, says a slot taken meanwhile, then moves it', async () => {
  // Two hours in a row crossed midnight at 22:00 in Mérida, and the picker shows one day at a time.
  const [first, second] = twoSlots();
  const moved = item({});
  moveSlots(moved.id, [first, second]);
  const posted: unknown[] = [];
  api.on('POST /api/admin/appointments/0b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e/move', ({ body }) => {
    posted.push(body);
    return posted.length === 1
      ? { status: 409, body: { error: 'Ese horario ya no está disponible. Elige otro de la lista.' } }
      : { body: { id: 'x', start: second, end: second, moved: true, memberId: ANA.id } };
  });
  renderPanel(api, <AppointmentItem item={moved} />);
  await userEvent.click(await screen.findByRole('button', { name: 'Reprogramar cita: Elena Poot' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reprogramar · Elena Poot' });
  // Nothing chosen yet: said, nothing sent.
  await userEvent.click(await within(dialog).findByRole('button', { name: 'Reprogramar' }));
  expect(within(dialog).getByText('Elige un horario de la lista.')).toBeTruthy();
  const times = await within(dialog).findAllByRole('radio', { name: /\d{2}:\d{2}/ });
  expect(times).toHaveLength(2);
  await userEvent.click(times[1] as HTMLElement);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Reprogramar' }));
  expect(await within(dialog).findByText('Ese horario ya no está disponible. Elige otro de la lista.')).toBeTruthy();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Reprogramar' }));
  await waitFor(() =>
    expect(toasts()).toEqual([
      expect.stringMatching(
        /^Cita reprogramada: Elena Poot: Visita a la casa muestra · .+, \d{2}:\d{2}\. Le avisamos por WhatsApp y por correo\.$/,
      ),
    ]),
  );
  expect(posted).toEqual([{ start: second }, { start: second }]);
});

test('"Reprogramar" to where the appointment already is (the buyer moved it there meanwhile) says nothing changed', async () => {
  const [first, second] = twoSlots();
  const moved = item({});
  moveSlots(moved.id, [first, second]);
  api.on(`POST /api/admin/appointments/${moved.id}/move`, {
    body: { id: moved.id, start: first, end: second, moved: false, memberId: ANA.id },
  });
  renderPanel(api, <AppointmentItem item={moved} />);
  await userEvent.click(await screen.findByRole('button', { name: 'Reprogramar cita: Elena Poot' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reprogramar · Elena Poot' });
  await userEvent.click((await within(dialog).findAllByRole('radio', { name: /\d{2}:\d{2}/ }))[0] as HTMLElement);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Reprogramar' }));
  await waitFor(() =>
    expect(toasts()).toEqual([
      expect.stringMatching(
        /^La cita ya estaba en ese horario: Elena Poot: Visita a la casa muestra · .+, \d{2}:\d{2}\. No cambió nada\.$/,
      ),
    ]),
  );
});
