// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { renderPanel, toasts } from '../../../../tests/support/panel-render.tsx';
import type { ContactSummary } from '../../../lib/admin/contacts.ts';
import type { TodayAgenda, TodaySectionPage } from '../../../lib/admin/today.ts';
import { FORBIDDEN } from '../api.ts';
import { TodayView } from './TodayView.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const EMPTY: TodaySectionPage = { items: [], total: 0, nextCursor: null };
const agenda = (sections: Partial<TodayAgenda['sections']> = {}, scope: 'mine' | 'all' = 'mine'): TodayAgenda => ({
  scope,
  day: '2026-11-24',
  sections: { overdue: EMPTY, today: EMPTY, new: EMPTY, rest: EMPTY, ...sections },
  appointments: { today: [], unmarked: [], unmarkedTotal: 0 },
});
let n = 0;
const person = (name: string, fields: Partial<ContactSummary> = {}): ContactSummary => ({
  id: `0b7c3a5e-2d4f-4c6b-8a9e-${String(++n).padStart(12, '0')}`,
  name,
  phone: '+529991000000',
  attempts: 0,
  email: null,
  municipality: null,
  kinds: ['comprador'],
  state: 'contactado',
  lostReason: null,
  nextContactAt: null,
  createdAt: '2026-11-20T15:00:00.000Z',
  lastActivityAt: '2026-11-24T23:31:00.000Z',
  firstCampaign: null,
  assignedTo: null,
  requests: 1,
  version: 1,
  unattended: false,
  ...fields,
});

describe('"Hoy"', () => {
  test('loading, then the sections in order with the numbers they list; the figures link to their lists', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.on('GET /api/admin/today', async () => {
      await held;
      return {
        body: agenda({
          overdue: { items: [person('Vencida', { nextContactAt: '2026-11-22' })], total: 1, nextCursor: null },
          today: { items: [person('De hoy', { nextContactAt: '2026-11-24' })], total: 1, nextCursor: null },
          new: {
            items: [person('Nueva', { state: 'nuevo' }), person('Otra nueva', { state: 'nuevo' })],
            total: 2,
            nextCursor: null,
          },
        }),
      };
    });
    renderPanel(api, <TodayView admin={false} />, '/admin?vista=hoy');
    expect(await screen.findByText('Cargando…')).toBeTruthy();
    release();
    const headings = await screen.findAllByRole('heading', { level: 3 });
    expect(headings.map((heading) => heading.textContent)).toEqual([
      'Citas de hoy (0)',
      'Contactos vencidos (1)',
      'Para hoy (1)',
      'Nuevos sin atender (2)',
      'Los demás en seguimiento (0)',
    ]);
    const lists = screen.getAllByRole('list');
    expect(lists.map((list) => within(list).getAllByRole('listitem').length)).toEqual([1, 1, 2]);
    expect(screen.getByText('Nadie más en seguimiento.')).toBeTruthy();
    expect(screen.getAllByText('999 100 0000')).toHaveLength(4);
    expect(screen.getByText('22 nov 2026 (vencido)')).toBeTruthy();
    // An adviser's "Hoy" is theirs: no choice of scope, the figures open their own lists.
    expect(api.requests).toEqual(['GET /api/admin/today?scope=mine']);
    expect(screen.queryByRole('button', { name: 'Todo el equipo' })).toBeNull();
    expect(screen.getByRole('link', { name: /Vencidos/ }).getAttribute('href')).toBe(
      '/admin?vista=prospectos&agenda=vencidos&assigned=me',
    );
    expect(screen.getByRole('link', { name: /Nuevos sin atender/ }).textContent).toBe('2Nuevos sin atender');
  });

  test('empty: one sentence instead of four empty sections (and the day’s appointments: none)', async () => {
    api.on('GET /api/admin/today', { body: agenda() });
    renderPanel(api, <TodayView admin={false} />);
    expect(
      await screen.findByText('No tienes prospectos abiertos. Cuando te asignen uno, aparecerá aquí.'),
    ).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Citas de hoy (0)',
    ]);
    expect(screen.getByText('Ninguna cita para hoy.')).toBeTruthy();
  });

  test('an unmarked past appointment: "No asistió" in one tap, then the proposed follow-up in one more', async () => {
    const appointment = {
      id: '0b7c3a5e-2d4f-4c6b-8a9e-a00000000001',
      kindName: 'Visita a la casa muestra',
      placeName: 'Casa muestra Mérida',
      timeZone: 'America/Merida',
      start: '2026-11-23T16:00:00.000Z',
      end: '2026-11-23T17:00:00.000Z',
      status: 'confirmada' as const,
      source: 'sitio' as const,
      contact: { id: '0b7c3a5e-2d4f-4c6b-8a9e-b00000000001', name: 'Rosa Pech' },
      member: { id: '0b7c3a5e-2d4f-4c6b-8a9e-c00000000001', name: 'Ana' },
    };
    let marked = false;
    api.on('GET /api/admin/today', () => ({
      body: {
        ...agenda(),
        appointments: { today: [], unmarked: marked ? [] : [appointment], unmarkedTotal: marked ? 0 : 1 },
      },
    }));
    api.on(`POST /api/admin/appointments/${appointment.id}/attendance`, ({ body }) => {
      expect(body).toEqual({ attended: false });
      marked = true;
      return {
        body: {
          id: appointment.id,
          status: 'no_asistio',
          contact: {
            id: appointment.contact.id,
            name: 'Rosa Pech',
            state: 'visita_agendada',
            version: 4,
            nextContactAt: null,
          },
          proposedNextContactAt: '2026-11-25T16:00:00.000Z',
          changed: true,
        },
      };
    });
    let patched: unknown = null;
    api.on(`PATCH /api/admin/contacts/${appointment.contact.id}`, ({ body }) => {
      patched = body;
      return { body: {} };
    });
    renderPanel(api, <TodayView admin={false} />);
    expect(await screen.findByRole('heading', { name: 'Citas sin marcar (1)' })).toBeTruthy();
    expect(screen.getByText('lun 23 de nov, 10:00')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'No asistió' }));
    expect(await screen.findByText(/¿Agendar el próximo contacto para el/)).toBeTruthy();
    // The card's badge follows the mark at once.
    expect(screen.getByText('No asistió', { selector: 'span' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Agendar seguimiento' }));
    await waitFor(() => expect(patched).toEqual({ nextContactAt: '2026-11-25T16:00:00.000Z', version: 4 }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: /Citas sin marcar/ })).toBeNull());
    await waitFor(() => expect(toasts()).toContain('Seguimiento agendado con Rosa Pech'));
  });

  test('a failure offers "Reintentar" after the retries; a 403 says why, without a button', async () => {
    api.on('GET /api/admin/today', { status: 500 });
    renderPanel(api, <TodayView admin={false} />);
    expect(await screen.findByText('No se pudo cargar el día.')).toBeTruthy();
    expect(api.requests).toHaveLength(3);
    api.on('GET /api/admin/today', { body: agenda() });
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText(/No tienes prospectos abiertos/)).toBeTruthy();

    document.body.innerHTML = '';
    api.reset();
    api.on('GET /api/admin/today', { status: 403, body: {} });
    renderPanel(api, <TodayView admin={false} />);
    // In the view (the toast says it too, with its own close button).
    const refusal = await waitFor(() => {
      const inView = screen.getAllByText(FORBIDDEN).find((text) => !text.closest('.toast'));
      expect(inView).toBeTruthy();
      return inView?.closest('[role="alert"]');
    });
    expect(refusal).toBeTruthy();
    expect(within(refusal as HTMLElement).queryByRole('button')).toBeNull();
    expect(api.requests).toHaveLength(1);
    await waitFor(() => expect(toasts()).toContain(`Error al cargar el día: ${FORBIDDEN}`));
  });

  test('an administrator sees the team’s; "Mis prospectos" goes in the address and asks for their own', async () => {
    api.on('GET /api/admin/today', ({ url }) => ({
      body: agenda({}, url.searchParams.get('scope') as 'mine' | 'all'),
    }));
    renderPanel(api, <TodayView admin />, '/admin?vista=hoy');
    expect(await screen.findByText('Aún no hay prospectos abiertos.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Todo el equipo', pressed: true })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Mis prospectos' }));
    await waitFor(() => expect(window.location.search).toBe('?vista=hoy&alcance=mios'));
    expect(await screen.findByText(/No tienes prospectos abiertos/)).toBeTruthy();
    expect(api.requests).toEqual(['GET /api/admin/today?scope=all', 'GET /api/admin/today?scope=mine']);
  });

  test('"Cargar más" brings the next page of that section only; the count stays the section’s', async () => {
    const first = Array.from({ length: 20 }, (_, i) => person(`Nuevo ${i}`, { state: 'nuevo' }));
    api.on('GET /api/admin/today', ({ url }) =>
      url.searchParams.get('section') === 'new'
        ? { body: { items: [person('Nuevo 20', { state: 'nuevo' })], total: 21, nextCursor: null } }
        : { body: agenda({ new: { items: first, total: 21, nextCursor: 'siguiente' } }) },
    );
    renderPanel(api, <TodayView admin={false} />);
    expect(await screen.findByText('Mostrando 20 de 21')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByText('Nuevo 20')).toBeTruthy();
    expect(screen.queryByText(/Mostrando/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(api.requests).toContain('GET /api/admin/today?scope=mine&section=new&cursor=siguiente');
  });
});
