/**
 * Renders a panel view as its island does (a fresh cache with the panel's
 * rules, retries without their pause), in a page served from the test's API
 * origin, with the layout's toast regions. `navigations` records where the
 * page was sent (the browser would leave it).
 */
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';
import { createPanelQueryClient, PanelQueries } from '../../src/components/admin/query.tsx';
import type { PanelApi } from './panel-api.ts';

export const navigations: string[] = [];

afterEach(() => {
  cleanup();
  navigations.length = 0;
  document.body.innerHTML = '';
});

export function renderPanel(api: PanelApi, view: ReactNode, path = '/admin') {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${api.origin}${path}`);
  vi.spyOn(window.location, 'assign').mockImplementation((url) => {
    navigations.push(String(url));
  });
  document.body.innerHTML =
    '<div><div id="toasts-status" role="status"></div><div id="toasts-alert" role="alert"></div></div>';
  const client = createPanelQueryClient({ retryDelay: 0 });
  const rendered = render(<PanelQueries client={client}>{view}</PanelQueries>, {
    container: document.body.appendChild(document.createElement('div')),
  });
  return { ...rendered, client };
}

/** The toasts shown, as "title: description". */
export const toasts = (): string[] =>
  [...document.querySelectorAll('.toast')].map((toast) =>
    [...toast.querySelectorAll('p')].map((line) => line.textContent).join(': '),
  );
