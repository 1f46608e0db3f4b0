// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { navigations, renderPanel, toasts } from '../../../../tests/support/panel-render.tsx';
import { EMAIL_MAX, PASSWORD_INPUT_MAX, PASSWORD_MIN } from '../../../lib/forms/credentials.ts';
import AuthPanel from './AuthPanel.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.reset();
  api.on('GET /api/auth/session', { body: { user: null } });
});

test('the one-time setup: the e-mail and password fields carry the schemas’ limits', async () => {
  api.on('GET /api/admin-exists', { body: { exists: false } });
  renderPanel(api, <AuthPanel />, '/auth');
  const email = (await screen.findByLabelText(/Correo electrónico/)) as HTMLInputElement;
  const password = screen.getByLabelText(/Contraseña/) as HTMLInputElement;
  expect([email.type, email.autocomplete, email.maxLength, email.id]).toEqual([
    'email',
    'username',
    EMAIL_MAX,
    'email',
  ]);
  expect([password.type, password.autocomplete, password.maxLength]).toEqual([
    'password',
    'new-password',
    PASSWORD_INPUT_MAX,
  ]);
  expect(screen.getByText(`Mínimo ${PASSWORD_MIN} caracteres.`)).toBeTruthy();
});

test('a wrong password (401) is an answer on the sign-in page, not a lost session', async () => {
  api.on('GET /api/admin-exists', { body: { exists: true } });
  api.on('POST /api/auth/login', { status: 401, body: { error: 'Credenciales incorrectas' } });
  renderPanel(api, <AuthPanel />, '/auth');
  await userEvent.type(await screen.findByLabelText(/Correo electrónico/), 'direccion@ceiba.mx');
  const password = screen.getByLabelText(/Contraseña/) as HTMLInputElement;
  expect(password.autocomplete).toBe('current-password');
  await userEvent.type(password, 'no-es-la-contraseña');
  await userEvent.click(screen.getByRole('button', { name: 'Ingresar' }));
  await waitFor(() => expect(toasts()).toContain('Error de acceso: Credenciales incorrectas'));
  expect(navigations).toEqual([]);
});
