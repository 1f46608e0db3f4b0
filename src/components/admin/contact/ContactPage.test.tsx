// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { navigations, renderPanel, toasts } from '../../../../tests/support/panel-render.tsx';
import { type ContactDetail, STALE_VERSION } from '../../../lib/admin/contacts.ts';
import { SESSION_LOST } from '../api.ts';
import { ContactPage } from './ContactPage.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.reset();
  api.on('GET /api/auth/session', {
    body: {
      user: { id: 'a1b2c3d4-0000-4000-8000-000000000001', email: 'asesora@ceiba.mx', name: 'Marisol', role: 'asesor' },
    },
  });
});

const ID = '0b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e';
const CONTACT: ContactDetail = {
  id: ID,
  name: 'Lucía Chablé',
  phone: '+529991234567',
  email: null,
  municipality: 'Mérida',
  kinds: ['comprador'],
  state: 'nuevo',
  lostReason: null,
  nextContactAt: null,
  attempts: 0,
  createdAt: '2026-11-20T15:00:00.000Z',
  lastActivityAt: '2026-11-20T15:00:00.000Z',
  firstCampaign: null,
  assignedTo: null,
  requests: 1,
  version: 1,
  unattended: false,
  modelId: null,
  estimatedValue: null,
  expectedCloseOn: null,
  marketingConsent: false,
  marketingOpposed: false,
  firstTouch: {},
  lastTouch: {},
  timeline: [],
};

/** The state badge in the page's header. */
const badge = () => screen.getByRole('heading', { level: 1 }).nextElementSibling?.textContent;

test('a state change shows at once, before the server answers, and stays once saved', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  api.on(`GET /api/admin/contacts/${ID}`, { body: CONTACT });
  api.on(`PATCH /api/admin/contacts/${ID}`, async ({ body }) => {
    await held;
    const change = body as { state: ContactDetail['state']; version: number };
    return { body: { ...CONTACT, state: change.state, version: change.version + 1 } };
  });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  expect(screen.getByText('Cargando prospecto…')).toBeTruthy();
  await screen.findByRole('heading', { name: 'Lucía Chablé' });
  expect(badge()).toBe('Nuevo');

  await userEvent.selectOptions(screen.getByLabelText('Estado'), 'contactado');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  await waitFor(() => expect(badge()).toBe('Contactado'));
  expect(screen.getByRole('button', { name: 'Guardando…' })).toBeTruthy();
  release();
  await waitFor(() => expect(toasts()).toContain('Cambios guardados'));
  expect(badge()).toBe('Contactado');
});

test('a 409 takes the change back and says someone else changed the contact; "Recargar" shows theirs', async () => {
  api.on(`GET /api/admin/contacts/${ID}`, { body: CONTACT });
  api.on(`PATCH /api/admin/contacts/${ID}`, { status: 409, body: { error: STALE_VERSION } });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  await screen.findByRole('heading', { name: 'Lucía Chablé' });

  await userEvent.selectOptions(screen.getByLabelText('Estado'), 'en_seguimiento');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(await screen.findByText(STALE_VERSION)).toBeTruthy();
  expect(badge()).toBe('Nuevo');
  expect(toasts()).toEqual([]);

  api.on(`GET /api/admin/contacts/${ID}`, { body: { ...CONTACT, state: 'contactado', version: 2 } });
  await userEvent.click(screen.getByRole('button', { name: 'Recargar' }));
  await waitFor(() => expect(badge()).toBe('Contactado'));
  expect((screen.getByLabelText('Estado') as HTMLSelectElement).value).toBe('contactado');
  expect(screen.queryByText(STALE_VERSION)).toBeNull();
});

test('an unknown contact (404) and a malformed id say "No encontramos este prospecto" without a toast', async () => {
  api.on(`GET /api/admin/contacts/${ID}`, { status: 404, body: { error: 'No encontramos este prospecto.' } });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  expect(await screen.findByRole('heading', { name: 'No encontramos este prospecto' })).toBeTruthy();
  expect(toasts()).toEqual([]);
  expect(navigations).toEqual([]);
});

test('a session that ended while the page was open: the adviser signs in again in place and the change is saved', async () => {
  let sessions = 0;
  api.on(`GET /api/admin/contacts/${ID}`, { body: CONTACT });
  api.on(`PATCH /api/admin/contacts/${ID}`, ({ body }) => {
    if (sessions === 0) return { status: 401, body: { error: 'Tu sesión expiró.' } };
    const change = body as { state: ContactDetail['state']; version: number };
    return { body: { ...CONTACT, state: change.state, version: change.version + 1 } };
  });
  api.on('POST /api/auth/login', ({ body }) => {
    if ((body as { password: string }).password !== 'asesora-segura') {
      return { status: 401, body: { error: 'Credenciales incorrectas' } };
    }
    sessions += 1;
    return { body: { ok: true } };
  });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  await screen.findByRole('heading', { name: 'Lucía Chablé' });
  await userEvent.selectOptions(screen.getByLabelText('Estado'), 'en_seguimiento');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  const dialog = await screen.findByRole('dialog', { name: 'Tu sesión terminó' });
  expect(((await screen.findByLabelText('Correo electrónico')) as HTMLInputElement).value).toBe('asesora@ceiba.mx');
  await userEvent.type(screen.getByLabelText('Contraseña'), 'otra');
  await userEvent.click(screen.getByRole('button', { name: 'Entrar y guardar' }));
  expect(await screen.findByText('Credenciales incorrectas')).toBeTruthy();
  await userEvent.clear(screen.getByLabelText('Contraseña'));
  await userEvent.type(screen.getByLabelText('Contraseña'), 'asesora-segura');
  await userEvent.click(screen.getByRole('button', { name: 'Entrar y guardar' }));
  await waitFor(() => expect(toasts()).toContain('Cambios guardados'));
  expect((dialog as HTMLDialogElement).open).toBe(false);
  expect(badge()).toBe('En seguimiento');
  expect(navigations).toEqual([]);
});

test('a session that ended, and the adviser gives up signing in: nothing saved, the form keeps the change and says so', async () => {
  api.on(`GET /api/admin/contacts/${ID}`, { body: CONTACT });
  api.on(`PATCH /api/admin/contacts/${ID}`, { status: 401, body: { error: 'Tu sesión expiró.' } });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  await screen.findByRole('heading', { name: 'Lucía Chablé' });
  await userEvent.selectOptions(screen.getByLabelText('Estado'), 'contactado');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  await screen.findByRole('dialog', { name: 'Tu sesión terminó' });
  await userEvent.click(await screen.findByRole('button', { name: 'Cancelar' }));
  expect(await screen.findByText(SESSION_LOST)).toBeTruthy();
  expect((screen.getByLabelText('Estado') as HTMLSelectElement).value).toBe('contactado');
  expect(badge()).toBe('Nuevo');
  expect(navigations).toEqual([]);
});

const MARISOL = 'a1b2c3d4-0000-4000-8000-000000000001';
const NOTES: ContactDetail['timeline'] = [
  {
    type: 'note',
    at: '2026-11-20T16:00:00.000Z',
    id: 'c1c1c1c1-0000-4000-8000-000000000001',
    author: 'Marisol',
    authorId: MARISOL,
    body: 'Llamar el lunes',
  },
  {
    type: 'note',
    at: '2026-11-20T17:00:00.000Z',
    id: 'c1c1c1c1-0000-4000-8000-000000000002',
    author: 'Pedro',
    authorId: 'a1b2c3d4-0000-4000-8000-000000000002',
    body: 'Quiere el modelo Lumo',
  },
];

test("an adviser sees «Eliminar» on their own notes only; the server's 403 is told in Spanish", async () => {
  api.on(`GET /api/admin/contacts/${ID}`, { body: { ...CONTACT, timeline: NOTES } });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  await screen.findByText('Quiere el modelo Lumo');
  const deletes = screen.getAllByRole('button', { name: /^Eliminar nota/ });
  expect(deletes).toHaveLength(1);
  expect(deletes[0]?.closest('li')?.textContent).toContain('Llamar el lunes');

  // Should the server refuse anyway (the adviser's role or the note changed since the page loaded), it says why.
  const refusal = 'Solo puedes eliminar tus propias notas. Pide a un administrador que elimine esta.';
  api.on(`DELETE /api/admin/contacts/${ID}/notes/c1c1c1c1-0000-4000-8000-000000000001`, {
    status: 403,
    body: { error: refusal },
  });
  window.confirm = () => true;
  await userEvent.click(deletes[0] as HTMLElement);
  await waitFor(() => expect(toasts()).toEqual([`No se pudo eliminar la nota: ${refusal}`]));
  expect(navigations).toEqual([]);
});

test('an administrator sees «Eliminar» on every note', async () => {
  api.on('GET /api/auth/session', {
    body: {
      user: { id: 'a1b2c3d4-0000-4000-8000-000000000009', email: 'admin@ceiba.mx', name: null, role: 'admin' },
      admin: true,
    },
  });
  api.on(`GET /api/admin/team`, { body: { members: [], invitations: [], settings: {} } });
  api.on(`GET /api/admin/contacts/${ID}`, { body: { ...CONTACT, timeline: NOTES } });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  await screen.findByText('Quiere el modelo Lumo');
  expect(screen.getAllByRole('button', { name: /^Eliminar nota/ })).toHaveLength(2);
});

test('while the person is erased and after, nothing of the contact is asked again (it would be a 404 before leaving)', async () => {
  api.on('GET /api/auth/session', {
    body: {
      user: { id: 'a1b2c3d4-0000-4000-8000-000000000009', email: 'admin@ceiba.mx', name: null, role: 'admin' },
      admin: true,
    },
  });
  api.on(`GET /api/admin/team`, { body: { members: [], invitations: [], settings: {} } });
  api.on(`GET /api/admin/contacts/${ID}`, { body: CONTACT });
  api.on(`GET /api/admin/contacts/${ID}/whatsapp/messages`, { body: { messages: [], nextCursor: null } });
  let erased = false;
  api.on(`DELETE /api/admin/contacts/${ID}`, () => {
    erased = true;
    return { status: 204 };
  });
  const { client } = renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  await screen.findByRole('heading', { name: 'Lucía Chablé' });
  await waitFor(() => expect(api.requests).toContain(`GET /api/admin/contacts/${ID}/whatsapp/messages`));

  await userEvent.click(screen.getByRole('button', { name: 'Eliminar a esta persona' }));
  await userEvent.click(screen.getByRole('button', { name: 'Eliminar todo' }));
  await waitFor(() => expect(navigations).toEqual(['/admin']));
  expect(erased).toBe(true);
  const after = api.requests.length;
  // What the polling and any change would do next: ask every query of the page again.
  await client.invalidateQueries();
  await client.refetchQueries({ type: 'active' });
  expect(api.requests.slice(after).filter((request) => request.includes(ID))).toEqual([]);
});

test('"Editar datos" shows for an adviser only on contacts that are theirs or nobody’s (the server’s 403 otherwise)', async () => {
  const mine = { id: 'a1b2c3d4-0000-4000-8000-000000000001', name: 'Marisol' };
  const theirs = { id: 'a1b2c3d4-0000-4000-8000-000000000002', name: 'Iván' };
  for (const [assignedTo, shown] of [
    [null, true],
    [mine, true],
    [theirs, false],
  ] as const) {
    api.on(`GET /api/admin/contacts/${ID}`, { body: { ...CONTACT, assignedTo } });
    const { unmount } = renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
    await screen.findByRole('heading', { name: 'Lucía Chablé' });
    expect(screen.queryByRole('button', { name: 'Editar datos' }) !== null, String(assignedTo?.name)).toBe(shown);
    unmount();
  }
});

test('an administrator records the person’s opposition to promotions and ads; the page says nothing more is shared', async () => {
  api.on('GET /api/auth/session', {
    body: {
      user: { id: 'a1b2c3d4-0000-4000-8000-000000000009', email: 'admin@ceiba.mx', name: 'Ada', role: 'admin' },
      admin: true,
    },
  });
  api.on(`GET /api/admin/team`, { body: { members: [], invitations: [], settings: {} } });
  api.on(`GET /api/admin/contacts/${ID}`, { body: { ...CONTACT, marketingConsent: true } });
  api.on(`POST /api/admin/contacts/${ID}/opposition`, {
    body: {
      ...CONTACT,
      marketingConsent: false,
      marketingOpposed: true,
      timeline: [
        {
          type: 'event',
          at: '2026-11-21T15:00:00.000Z',
          kind: 'marketing_consent',
          actor: 'Ada',
          from: null,
          to: 'no',
        },
      ],
    },
  });
  renderPanel(api, <ContactPage brand="Ceiba" />, `/admin/prospecto?id=${ID}`);
  expect(await screen.findByText(/Aceptó recibir novedades y promociones: lo que haga puede enviarse/)).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Registrar oposición a promociones y anuncios' }));
  await waitFor(() =>
    expect(toasts()).toContain(
      'Oposición registrada: Ya no compartiremos con plataformas de anuncios lo que haga esta persona.',
    ),
  );
  expect(screen.getByText(/No comparte sus datos con plataformas de anuncios/)).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Registrar oposición a promociones y anuncios' })).toBeNull();
  expect(screen.getByText('Se registró su oposición a promociones y anuncios')).toBeTruthy();
  expect(api.requests).toContain(`POST /api/admin/contacts/${ID}/opposition`);
});
