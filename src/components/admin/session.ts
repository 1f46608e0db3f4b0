import { useEffect, useState } from 'react';
import { flashToast } from '../../lib/client/flash.ts';
import { apiCall, goTo } from './api.ts';

/**
 * The signed-in administrator's e-mail once the session is checked (null
 * while checking): without a session the page goes to /auth, without the
 * role to the home page, each with the spec's toast.
 */
export function useAdminSession(): string | null {
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    (async () => {
      const session = await apiCall<{ admin?: boolean; user?: { email: string } | null }>('/api/auth/session').catch(
        () => null,
      );
      if (session?.ok && !session.body.user) return goTo('/auth');
      if (!session?.ok) {
        flashToast({
          title: 'Error de verificación',
          description: 'Error al verificar permisos de administrador',
          variant: 'destructive',
        });
        return goTo('/auth');
      }
      if (!session.body.admin) {
        flashToast({
          title: 'Acceso denegado',
          description: 'No tienes permisos para acceder al panel de administración',
          variant: 'destructive',
        });
        return goTo('/');
      }
      setEmail(session.body.user?.email ?? '');
    })();
  }, []);
  return email;
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
