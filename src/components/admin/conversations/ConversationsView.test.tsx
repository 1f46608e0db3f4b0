// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { renderPanel } from '../../../../tests/support/panel-render.tsx';
import type { ConversationPage, ConversationSummary } from '../../../lib/whatsapp/contract.ts';
import { ConversationsView } from './ConversationsView.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const EMPTY: ConversationPage = { conversations: [], nextCursor: null };
const ONE: ConversationSummary = {
  contactId: '0b7c3a5e-2d4f-4c6b-8a9e-1f2d3c4b5a69',
  name: 'Ana <b>Canul</b>',
  phone: '+529991000000',
  assignedTo: { id: '6f1c1b52-3f7e-4a55-9f0b-1d2c3e4f5a6b', name: 'Nadia' },
  lastMessage: {
    id: null,
    at: '2026-11-24T23:31:00.000Z',
    direction: 'in',
    preview: '<script>x()</script> hola\nsegunda',
  },
  unread: 3,
  waitingSince: null,
  optedOutAt: null,
};

describe('Conversaciones', () => {
  test('loading, then empty; the filter and the search come from the address', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.on('GET /api/admin/whatsapp/conversations', async () => {
      await held;
      return { body: EMPTY };
    });
    renderPanel(api, <ConversationsView admin={false} />, '/admin?vista=conversaciones&filtro=unread&q=ana');
    expect(await screen.findByText('Cargando conversaciones…')).toBeTruthy();
    release();
    expect(await screen.findByText('Ninguna conversación coincide con la búsqueda o el filtro.')).toBeTruthy();
    expect(api.requests).toContain('GET /api/admin/whatsapp/conversations?filter=unread&q=ana');
    expect(screen.getByRole('button', { name: 'No leídas', pressed: true })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Mías' }));
    await waitFor(() => expect(window.location.search).toBe('?vista=conversaciones&filtro=mine&q=ana'));
  });

  test('a conversation: its first line as text, its unread count, its adviser, and a link to the contact', async () => {
    api.on('GET /api/admin/whatsapp/conversations', { body: { ...EMPTY, conversations: [ONE] } });
    renderPanel(api, <ConversationsView admin={false} />, '/admin?vista=conversaciones');
    const link = await screen.findByRole('link', { name: /Ana <b>Canul<\/b>/ });
    expect(link.getAttribute('href')).toBe(`/admin/prospecto?id=${ONE.contactId}#whatsapp`);
    expect(screen.getByText('<script>x()</script> hola')).toBeTruthy();
    expect(screen.queryByText(/segunda/)).toBeNull();
    expect(screen.getByText('Asesor: Nadia')).toBeTruthy();
    expect(link.textContent).toContain('3 mensajes sin leer');
    expect(document.querySelector('script, b')).toBeNull();
  });

  test('a failure says so with “Reintentar”; a 403 in words without it', async () => {
    api.on('GET /api/admin/whatsapp/conversations', { status: 500 });
    renderPanel(api, <ConversationsView admin={false} />, '/admin?vista=conversaciones');
    expect(await screen.findByText('No se pudieron cargar las conversaciones.')).toBeTruthy();
    api.on('GET /api/admin/whatsapp/conversations', { body: EMPTY });
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Aún no hay conversaciones de WhatsApp.')).toBeTruthy();

    document.body.innerHTML = '';
    api.on('GET /api/admin/whatsapp/conversations', { status: 403, body: { error: 'Sin permiso para esto.' } });
    renderPanel(api, <ConversationsView admin={false} />, '/admin?vista=conversaciones');
    expect(await screen.findByText('Sin permiso para esto.')).toBeTruthy();
  });

  test('an administrator adds and edits the quick replies; a refused title is told in Spanish', async () => {
    const saved = { id: '2c1b9a8e-1d2e-4f3a-9b8c-7d6e5f4a3b2c', title: 'Saludo', body: 'Hola {nombre}', updatedAt: '' };
    const posted: unknown[] = [];
    api.on('GET /api/admin/whatsapp/conversations', { body: EMPTY });
    api.on('GET /api/admin/whatsapp/quick-replies', { body: { quickReplies: [saved] } });
    api.on('POST /api/admin/whatsapp/quick-replies', ({ body }) => {
      posted.push(body);
      return posted.length === 1
        ? { status: 409, body: { error: 'Ya hay una respuesta con ese título.' } }
        : { status: 201, body: { quickReply: saved } };
    });
    api.on(`PATCH /api/admin/whatsapp/quick-replies/${saved.id}`, ({ body }) => {
      posted.push(body);
      return { body: { quickReply: saved } };
    });
    renderPanel(api, <ConversationsView admin />, '/admin?vista=conversaciones');
    await userEvent.click(await screen.findByText('Respuestas rápidas (1)'));
    await userEvent.click(screen.getByRole('button', { name: 'Agregar respuesta' }));
    expect(await screen.findByText('Escribe un título.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/^Título/), 'Saludo');
    await userEvent.type(screen.getByRole('textbox', { name: /^Respuesta/ }), 'Hola, soy {{asesor}');
    await userEvent.click(screen.getByRole('button', { name: 'Agregar respuesta' }));
    expect(await screen.findByText('Ya hay una respuesta con ese título.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Agregar respuesta' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Editar Saludo' }));
    expect((screen.getByRole('textbox', { name: /^Respuesta/ }) as HTMLTextAreaElement).value).toBe('Hola {nombre}');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(posted[2]).toEqual({ title: 'Saludo', body: 'Hola {nombre}' }));
    expect(posted[0]).toEqual({ title: 'Saludo', body: 'Hola, soy {asesor}' });
  });
});
