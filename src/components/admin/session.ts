import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { flashToast } from '../../lib/client/flash.ts';
import { api, goTo, SIGN_IN_PAGE } from './api.ts';
import { keys } from './keys.ts';

export interface PanelUser {
  id: string;
  email: string;
  name: string | null;
  role: 'admin' | 'asesor';
  admin: boolean;
  /** The team requires administrators to sign in with a passkey and this session used a password: only "Mi cuenta". */
  passkeyPending: boolean;
}

interface SessionAnswer {
  admin?: boolean;
  passkeyPending?: boolean;
  user?: { id: string; email: string; name: string | null; role: 'admin' | 'asesor' | null } | null;
}

/**
 * The signed-in member once the session is checked (null while checking):
 * without a session the page goes to /auth, without a role in the team to the
 * home page, each with its toast (docs/product.md §12.4). Advisers get the panel too, with
 * what their role allows.
 */
export function usePanelUser(): PanelUser | null {
  const session = useQuery({
    queryKey: keys.session,
    queryFn: () => api<SessionAnswer>('/api/auth/session'),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const user = session.data?.user;
  useEffect(() => {
    if (session.isError) {
      flashToast({
        title: 'Error de verificación',
        description: 'Error al verificar permisos de administrador',
        variant: 'destructive',
      });
      return goTo(SIGN_IN_PAGE);
    }
    if (!session.data) return;
    if (!user) return goTo(SIGN_IN_PAGE);
    if (!user.role) {
      flashToast({
        title: 'Acceso denegado',
        description: 'No tienes permisos para acceder al panel de administración',
        variant: 'destructive',
      });
      goTo('/');
    }
  }, [session.isError, session.data, user]);
  return useMemo(() => {
    const role = user?.role;
    if (!user || !role) return null;
    return {
      ...user,
      role,
      admin: session.data?.admin === true,
      passkeyPending: session.data?.passkeyPending === true,
    };
  }, [user, session.data]);
}

/** Debounces a changing value: the search box asks the server once typing pauses. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const MERIDA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' });

/** Today's date in Mérida, YYYY-MM-DD: what next-contact dates compare with. */
export const todayInMerida = (): string => MERIDA_DAY.format(new Date());
