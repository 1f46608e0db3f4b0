// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { renderPanel, toasts } from '../../../../tests/support/panel-render.tsx';
import { CONTACT_STATES, type ContactState, STALE_VERSION } from '../../../lib/admin/contacts.ts';
import type { PipelineBoard, PipelineCard } from '../../../lib/admin/pipeline.ts';
import { PipelineView } from './PipelineView.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const ROSA: PipelineCard = {
  id: '0b7c3a5e-2d4f-4c6b-8a9e-000000000001',
  name: 'Rosa Pech',
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
  version: 3,
  unattended: false,
  modelId: 'lumo',
  estimatedValue: null,
  expectedCloseOn: '2026-12-15',
  modelName: 'Lumo',
  value: 349_000,
  paid: 0,
};

const board = (cards: PipelineCard[]): PipelineBoard => ({
  columns: CONTACT_STATES.map((state) => {
    const items = cards.filter((card) => card.state === state);
    return {
      state,
      items,
      nextCursor: null,
      total: items.length,
      value: items.reduce((sum, card) => sum + (card.value ?? 0), 0),
      valued: items.filter((card) => card.value !== null).length,
    };
  }),
});
const column = (state: ContactState) => document.querySelector(`[data-column="${state}"]`) as HTMLElement;

test('a move shows at once; refused (409), the card goes back, the live region and a toast say why in Spanish', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  api.on('GET /api/admin/pipeline', { body: board([ROSA]) });
  api.on(`PATCH /api/admin/contacts/${ROSA.id}`, async ({ body }) => {
    expect(body).toEqual({ state: 'en_seguimiento', lostReason: null, version: 3 });
    await held;
    return { status: 409, body: { error: STALE_VERSION } };
  });
  renderPanel(api, <PipelineView />, '/admin?vista=embudo&etapa=contactado');
  await screen.findByText('Rosa Pech');
  expect(within(column('contactado')).getAllByText('$349,000')).toHaveLength(2); // the column's sum and the card's

  await userEvent.click(screen.getByRole('button', { name: /Mover a…/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Mover a Rosa Pech' });
  await userEvent.click(within(dialog).getByLabelText('En seguimiento'));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Mover' }));
  // Optimistic: already in its new column, with its value.
  await waitFor(() => expect(within(column('en_seguimiento')).queryByText('Rosa Pech')).toBeTruthy());
  expect(within(column('contactado')).queryByText('Rosa Pech')).toBeNull();

  release();
  await waitFor(() => expect(within(column('contactado')).queryByText('Rosa Pech')).toBeTruthy());
  expect(within(column('en_seguimiento')).queryByText('Rosa Pech')).toBeNull();
  expect(await screen.findByText(`No se movió a Rosa Pech; sigue en «Contactado». ${STALE_VERSION}`)).toBeTruthy();
  await waitFor(() => expect(toasts()).toEqual([`No se pudo mover el prospecto: ${STALE_VERSION}`]));
});

test('to «Cerrado: perdido» the reason is required before anything is sent', async () => {
  const sent: unknown[] = [];
  api.on('GET /api/admin/pipeline', { body: board([ROSA]) });
  api.on(`PATCH /api/admin/contacts/${ROSA.id}`, ({ body }) => {
    sent.push(body);
    return { body: { ...ROSA, state: 'cerrado_perdido', lostReason: 'sin_terreno', version: 4, timeline: [] } };
  });
  renderPanel(api, <PipelineView />, '/admin?vista=embudo&etapa=contactado');
  await userEvent.click(await screen.findByRole('button', { name: /Mover a…/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Mover a Rosa Pech' });
  await userEvent.click(within(dialog).getByLabelText('Cerrado: perdido'));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Mover' }));
  expect(within(dialog).getByRole('alert').textContent).toBe('Elige el motivo por el que se perdió.');
  expect(sent).toEqual([]);
  await userEvent.selectOptions(within(dialog).getByLabelText('Motivo por el que se perdió'), 'sin_terreno');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Mover' }));
  expect(await screen.findByText('Rosa Pech pasó a «Cerrado: perdido».')).toBeTruthy();
  expect(sent).toEqual([{ state: 'cerrado_perdido', lostReason: 'sin_terreno', version: 3 }]);
});
