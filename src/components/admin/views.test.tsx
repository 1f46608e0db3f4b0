// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../tests/support/panel-api.ts';
import { navigations, renderPanel, toasts } from '../../../tests/support/panel-render.tsx';
import type { ContactSummary } from '../../lib/admin/contacts.ts';
import type { NotificationsOverview } from '../../lib/admin/notifications.ts';
import type { ActivityPage, TeamView as Team } from '../../lib/admin/team.ts';
import { LEAD_KIND_REGISTRY } from '../../lib/leads/kinds.ts';
import type { CallsPage } from '../../lib/voice/calls.ts';
import { AdminPanel } from './AdminPanel.tsx';
import { ActivityView } from './activity/ActivityView.tsx';
import { FORBIDDEN } from './api.ts';
import { CallsView } from './calls/CallsView.tsx';
import { ContactsView } from './contacts/ContactsView.tsx';
import type { ContactsPage } from './contacts/queries.ts';
import { MetricsView } from './metrics/MetricsView.tsx';
import { NotificationsView } from './notifications/NotificationsView.tsx';
import type { LeadPage } from './requests/queries.ts';
import { TeamView } from './team/TeamView.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const ADMIN = { id: '6f1c1b52-3f7e-4a55-9f0b-1d2c3e4f5a6b', email: 'direccion@ceiba.mx', name: 'Dirección' };
const NO_CONTACTS: ContactsPage = { items: [], nextCursor: null, total: 0, counts: null, capped: false };
const ONE_CONTACT: ContactSummary = {
  id: '0b7c3a5e-2d4f-4c6b-8a9e-1f2d3c4b5a69',
  name: 'Ana Canul',
  attempts: 0,
  phone: '+529991000000',
  email: null,
  municipality: 'Mérida',
  kinds: ['comprador'],
  state: 'nuevo',
  lostReason: null,
  nextContactAt: null,
  createdAt: '2026-11-20T15:00:00.000Z',
  lastActivityAt: '2026-11-24T23:31:00.000Z',
  firstCampaign: null,
  assignedTo: null,
  requests: 1,
  version: 1,
  unattended: true,
};
const EMPTY_TEAM: Team = {
  members: [],
  invitations: [],
  mailer: false,
  roundRobin: false,
  adminPasskeyRequired: false,
};
const NO_ACTIVITY: ActivityPage = { items: [], nextCursor: null };
const NO_CALLS: CallsPage = { items: [], nextCursor: null };
const QUIET: NotificationsOverview = {
  channels: [{ channel: 'email', on: false, target: null }],
  lastSent: null,
  failures: [],
  pending: 0,
  summary: null,
  retries: '1 min y 5 min',
};

describe('each view while it loads, empty, failing and refused', () => {
  test('Prospectos: "Cargando…", then the empty list', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.on('GET /api/admin/contacts', async () => {
      await held;
      return { body: NO_CONTACTS };
    });
    renderPanel(api, <ContactsView />);
    expect(await screen.findByText('Cargando…')).toBeTruthy();
    release();
    expect(await screen.findByText('Aún no hay prospectos.')).toBeTruthy();
    expect(screen.getByText('0 prospectos')).toBeTruthy();
    // The figures are in "Métricas" now: the list does not ask for them.
    expect(api.requests.filter((line) => line.startsWith('GET /api/admin/metrics'))).toEqual([]);
  });

  test('Prospectos: one contact is "1 prospecto"; the filters come from the address', async () => {
    api.on('GET /api/admin/contacts', { body: { ...NO_CONTACTS, items: [ONE_CONTACT], total: 1 } });
    renderPanel(api, <ContactsView />, '/admin?vista=prospectos&state=nuevo&agenda=vencidos&q=ana&state2=x');
    expect(await screen.findByText('1 prospecto')).toBeTruthy();
    expect(screen.getByText(/^999 100 0000/)).toBeTruthy();
    expect(api.requests).toContain('GET /api/admin/contacts?state=nuevo&agenda=vencidos&q=ana');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('ana');
    expect(screen.getByRole('button', { name: /Nuevo/, pressed: true })).toBeTruthy();
    // Removing the figure's filter changes the address and the list.
    await userEvent.click(screen.getByRole('button', { name: /Quitar el filtro: Próximo contacto vencido/ }));
    await waitFor(() => expect(window.location.search).toBe('?vista=prospectos&state=nuevo&q=ana&state2=x'));
    await waitFor(() => expect(api.requests).toContain('GET /api/admin/contacts?state=nuevo&q=ana'));
  });

  test('Métricas: the figures’ 500 is tried three times, quietly; the cards wait with "…"', async () => {
    api.on('GET /api/admin/metrics', { status: 500 });
    api.on('GET /api/admin/contacts', { body: NO_CONTACTS });
    renderPanel(api, <MetricsView />);
    await waitFor(() => expect(api.requests.filter((line) => line === 'GET /api/admin/metrics')).toHaveLength(3));
    expect(screen.getAllByText('…').length).toBeGreaterThan(0);
    expect(toasts()).toEqual([]);
    expect(screen.getByRole('link', { name: /Contactos vencidos del equipo/ }).getAttribute('href')).toBe(
      '/admin?vista=prospectos&agenda=vencidos',
    );
  });

  test('Prospectos: a server failure, retried, ends in a toast', async () => {
    api.on('GET /api/admin/contacts', { status: 503, body: { error: 'Base de datos caída, intenta en un momento.' } });
    renderPanel(api, <ContactsView />);
    await waitFor(() =>
      expect(toasts()).toContain('Error al cargar los prospectos: Base de datos caída, intenta en un momento.'),
    );
    expect(api.requests.filter((line) => line === 'GET /api/admin/contacts')).toHaveLength(3);
  });

  test('Prospectos: a 403 is not retried, and says why in Spanish', async () => {
    api.on('GET /api/admin/contacts', { status: 403, body: {} });
    renderPanel(api, <ContactsView />);
    await waitFor(() => expect(toasts()).toContain(`Error al cargar los prospectos: ${FORBIDDEN}`));
    expect(api.requests.filter((line) => line === 'GET /api/admin/contacts')).toHaveLength(1);
  });

  test('a 401 opens the sign-in in place, shows no error, and loads the view once signed in again', async () => {
    let signedIn = false;
    api.on('GET /api/admin/team', () =>
      signedIn ? { body: EMPTY_TEAM } : { status: 401, body: { error: 'Tu sesión expiró.' } },
    );
    api.on('POST /api/auth/login', () => {
      signedIn = true;
      return { body: { ok: true } };
    });
    renderPanel(api, <TeamView self={ADMIN.id} />);
    await screen.findByRole('dialog', { name: 'Tu sesión terminó' });
    expect(screen.getByText('Cargando equipo...')).toBeTruthy();
    expect(screen.queryByRole('alert', { name: /No se pudo/ })).toBeNull();
    await userEvent.type(await screen.findByLabelText('Correo electrónico'), 'admin@ceiba.mx');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'contraseña-segura');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar y guardar' }));
    expect(await screen.findByText('No hay invitaciones pendientes.')).toBeTruthy();
    expect(navigations).toEqual([]);
  });

  test('Equipo: loading, empty invitations, a failure with "Reintentar", a 403 in words', async () => {
    api.on('GET /api/admin/team', { status: 500 });
    renderPanel(api, <TeamView self={ADMIN.id} />);
    expect(screen.getByText('Cargando equipo...')).toBeTruthy();
    expect(await screen.findByText('No se pudo cargar esta vista.')).toBeTruthy();
    api.on('GET /api/admin/team', { body: EMPTY_TEAM });
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay invitaciones pendientes.')).toBeTruthy();

    document.body.innerHTML = '';
    api.on('GET /api/admin/team', { status: 403, body: { error: 'Solo un administrador puede hacer esto.' } });
    renderPanel(api, <TeamView self={ADMIN.id} />);
    const refusal = (await screen.findByText('Solo un administrador puede hacer esto.')).closest('[role="alert"]');
    expect(refusal).toBeTruthy();
    expect(within(refusal as HTMLElement).queryByRole('button')).toBeNull();
  });

  test('Actividad: empty with its filters; a 403 without words gets ours', async () => {
    api.on('GET /api/admin/team', { body: EMPTY_TEAM });
    api.on('GET /api/admin/activity', { body: NO_ACTIVITY });
    renderPanel(api, <ActivityView />);
    expect(screen.getByText('Cargando actividad...')).toBeTruthy();
    expect(await screen.findByText('No hay actividad con estos filtros.')).toBeTruthy();

    api.on('GET /api/admin/activity', { status: 403 });
    await userEvent.selectOptions(screen.getByLabelText('Tipo'), screen.getAllByRole('option')[2] as HTMLElement);
    expect((await screen.findByText(FORBIDDEN)).closest('[role="alert"]')).toBeTruthy();
  });

  test('Llamadas: loading, then the empty text; a failure is a toast', async () => {
    api.on('GET /api/admin/calls', { body: NO_CALLS });
    renderPanel(api, <CallsView canExport />);
    expect(screen.getByText('Cargando llamadas...')).toBeTruthy();
    expect(await screen.findByText(/Todavía no hay llamadas/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Descargar CSV' })).toBeNull();
  });

  test('Notificaciones: no failure yet; a load failure offers "Reintentar"', async () => {
    api.on('GET /api/admin/notifications', { body: QUIET });
    renderPanel(api, <NotificationsView />);
    expect(screen.getByText('Cargando notificaciones...')).toBeTruthy();
    expect(await screen.findByText('Ninguna notificación ha fallado.')).toBeTruthy();
    expect(screen.getByText('Todavía no se ha enviado ninguna notificación.')).toBeTruthy();

    document.body.innerHTML = '';
    api.on('GET /api/admin/notifications', { status: 502 });
    renderPanel(api, <NotificationsView />);
    expect(await screen.findByText('No se pudieron cargar las notificaciones.')).toBeTruthy();
  });

  test('Solicitudes: one tab per registered kind with its texts, each empty; a failed tab toasts its own error', async () => {
    api.on('GET /api/auth/session', { body: { user: { ...ADMIN, role: 'admin' }, admin: true } });
    api.on('GET /api/admin/contacts', { body: NO_CONTACTS });
    const empty: LeadPage = { items: [], deliveries: {}, nextCursor: null, total: 0 };
    const [first, second, third] = LEAD_KIND_REGISTRY;
    api.on(`GET /api/admin/${first.kind}`, { body: empty });
    api.on(`GET /api/admin/${second.kind}`, { body: { ...empty, total: 0 } });
    api.on(`GET /api/admin/${third.kind}`, { status: 403 });
    renderPanel(api, <AdminPanel />, '/admin#solicitudes');
    expect(screen.getByText('Verificando permisos...')).toBeTruthy();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(LEAD_KIND_REGISTRY.map((entry) => `${entry.texts.label} (0)`));
    expect(await screen.findByText(first.texts.empty)).toBeTruthy();
    await userEvent.click(tabs[1] as HTMLElement);
    expect(await screen.findByText(second.texts.empty)).toBeTruthy();
    await waitFor(() => expect(toasts()).toContain(`${third.texts.loadError}: ${FORBIDDEN}`));
    await userEvent.click(tabs[2] as HTMLElement);
    expect(within(screen.getByRole('tabpanel')).getByText('Cargando...')).toBeTruthy();
  });
});

test('Prospectos: back to a list where "Cargar más" was pressed, every card it showed is there again', async () => {
  const everyone = Array.from({ length: 60 }, (_, i) => ({
    ...ONE_CONTACT,
    id: `0b7c3a5e-2d4f-4c6b-8a9e-${String(i).padStart(12, '0')}`,
    name: `Persona ${i + 1}`,
  }));
  api.on('GET /api/admin/contacts', ({ url }) => {
    const from = Number(url.searchParams.get('cursor') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const items = everyone.slice(from, from + limit);
    const next = from + limit < everyone.length ? String(from + limit) : null;
    return { body: { ...NO_CONTACTS, items, nextCursor: next, total: everyone.length } };
  });
  const cards = () => within(screen.getByRole('list', { name: 'Prospectos' })).getAllByRole('listitem').length;
  const first = renderPanel(api, <ContactsView />, '/admin?vista=prospectos&state=nuevo');
  await waitFor(() => expect(cards()).toBe(50));
  await userEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
  await waitFor(() => expect(cards()).toBe(60));
  first.unmount();

  // The contact's page and Back: a new page, a new cache, the same address.
  renderPanel(api, <ContactsView />, '/admin?vista=prospectos&state=nuevo');
  await waitFor(() => expect(cards()).toBe(60));
  expect(api.requests.at(-1)).toBe('GET /api/admin/contacts?state=nuevo&limit=60');
  expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
  sessionStorage.clear();
});
