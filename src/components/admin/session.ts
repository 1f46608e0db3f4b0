import { useEffect, useState } from 'react';
import { flashToast } from '../../lib/client/flash.ts';
import { apiCall, goTo } from './api.ts';

export interface PanelUser {
  id: string;
  email: string;
  name: string | null;
  role: 'admin' | 'asesor';
  admin: boolean;
  /** The team requires administrators to sign in with a passkey and this session used a password: only "Mi cuenta". */
  passkeyPending: boolean;
}

/**
 * The signed-in member once the session is checked (null while checking):
 * without a session the page goes to /auth, without a role in the team to the
 * home page, each with its toast (docs/product.md §12.4). Advisers get the panel too, with
 * what their role allows.
 */
export function usePanelUser(): PanelUser | null {
  const [member, setMember] = useState<PanelUser | null>(null);
  useEffect(() => {
    (async () => {
      const session = await apiCall<{
        admin?: boolean;
        passkeyPending?: boolean;
        user?: { id: string; email: string; name: string | null; role: 'admin' | 'asesor' | null } | null;
      }>('/api/auth/session').catch(() => null);
      if (session?.ok && !session.body.user) return goTo('/auth');
      if (!session?.ok) {
        flashToast({
          title: 'Error de verificación',
          description: 'Error al verificar permisos de administrador',
          variant: 'destructive',
        });
        return goTo('/auth');
      }
      const user = session.body.user;
      if (!user?.role) {
        flashToast({
          title: 'Acceso denegado',
          description: 'No tienes permisos para acceder al panel de administración',
          variant: 'destructive',
        });
        return goTo('/');
      }
      setMember({
        ...user,
        role: user.role,
        admin: session.body.admin === true,
        passkeyPending: session.body.passkeyPending === true,
      });
    })();
  }, []);
  return member;
}

/** The signed-in member's e-mail (null while checking): for the views that need no more. */
export function useAdminSession(): string | null {
  return usePanelUser()?.email ?? null;
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
