// @vitest-environment happy-dom
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { keys } from '../keys.ts';
import { createPanelQueryClient, PanelQueries } from '../query.tsx';
import { useBookForContact } from './queries.ts';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());

const CONTACT = '0b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e';

test('a booking from the panel marks Hoy, the lists, the pipeline and the figures to be asked again', async () => {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${api.origin}/admin`);
  api.on('POST /api/admin/appointments', { status: 201, body: { id: 'x', contactId: CONTACT } });
  const client = createPanelQueryClient({ retryDelay: 0 });
  const shown = [
    keys.todayOf('mine'),
    keys.contactList({}),
    keys.pipelineOf('all'),
    keys.metrics,
    keys.contact(CONTACT),
  ];
  for (const key of shown) client.setQueryData(key, {});
  const wrapper = ({ children }: { children: ReactNode }) => <PanelQueries client={client}>{children}</PanelQueries>;
  const { result } = renderHook(() => useBookForContact(CONTACT), { wrapper });
  result.current.mutate({ contactId: CONTACT } as never);
  await waitFor(() => expect(result.current.isSuccess).toBe(true));
  await waitFor(() => expect(shown.filter((key) => !client.getQueryState(key)?.isInvalidated)).toEqual([]));
});
