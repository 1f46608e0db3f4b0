import {
  type DefaultError,
  MutationCache,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  type QueryKey,
} from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { showToast } from '../../lib/client/toast.ts';
import { ApiError, explain } from './api.ts';
import { SignInAgain } from './shared/SignInAgain.tsx';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
    queryMeta: {
      /** A failed load shows a toast with this title (views that show the failure in place leave it out). */
      errorTitle?: string;
    };
    mutationMeta: {
      /** A failed change shows a toast with this title and the server's reason. */
      errorTitle?: string;
      /** Queries to fetch again once the change is saved; the mutation ends when they are fresh. */
      invalidates?: QueryKey[];
    };
  }
}

/** Only what may pass on its own is tried again: no answer, or the server's own failure (5xx). */
export const worthRetrying = (error: DefaultError): boolean =>
  !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

/**
 * The panel's cache, with its rules in one place: loads retried twice on a
 * network or server failure (never on a 4xx), changes never retried; failure
 * toasts (not for a 404) and invalidation declared by each query and mutation's `meta`. No
 * refetch on focus: a view changes when someone acts on it.
 */
export function createPanelQueryClient(options: { retryDelay?: number } = {}): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        const title = query.meta?.errorTitle;
        // A 404 is the view's own answer ("No encontramos…"), never a toast.
        if (title && error.status !== 404) showToast({ title, description: explain(error), variant: 'destructive' });
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        const title = mutation.meta?.errorTitle;
        if (title) showToast({ title, description: explain(error), variant: 'destructive' });
      },
      onSuccess: (_data, _variables, _context, mutation) =>
        Promise.all((mutation.meta?.invalidates ?? []).map((queryKey) => client.invalidateQueries({ queryKey }))),
    }),
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && worthRetrying(error),
        ...(options.retryDelay === undefined ? {} : { retryDelay: options.retryDelay }),
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

let pageClient: QueryClient | undefined;

/**
 * Each island of a panel page shares the page's cache; a test passes its own.
 * A session that ends meanwhile is signed in again here, in a dialog (SignInAgain).
 */
export function PanelQueries({ client, children }: { client?: QueryClient; children: ReactNode }) {
  pageClient ??= createPanelQueryClient();
  return (
    <QueryClientProvider client={client ?? pageClient}>
      {children}
      <SignInAgain />
    </QueryClientProvider>
  );
}
