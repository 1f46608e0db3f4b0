import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { flashToast } from '../../../lib/client/flash.ts';
import { api, goTo, onSessionLost } from '../api.ts';
import { keys } from '../keys.ts';
import { Dialog } from './Dialog.tsx';
import { Loading } from './ui.tsx';

/** Loaded when a session first ends: no page's first touch carries it. */
const SignInForm = lazy(() => import('./SignInForm.tsx'));

interface SessionAnswer {
  user?: { id: string; email: string } | null;
}

/**
 * The sign-in of /auth in a dialog, for a session that ended (8 hours, or
 * closed on another device) while the member worked: whatever they were
 * saving waits (api.ts) and is sent once they are in again, as the same
 * member; the page, its forms and what was typed stay as they were. Another
 * account signing in goes to the panel's start instead (the change was the
 * other member's). "Cancelar" gives up: the change is not saved, the form
 * keeps it and says so.
 */
export function SignInAgain() {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const settle = useRef<((signedIn: boolean) => void) | null>(null);
  const member = client.getQueryData<SessionAnswer>(keys.session)?.user ?? null;

  useEffect(
    () =>
      onSessionLost(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current = resolve;
            setOpen(true);
          }),
      ),
    [],
  );

  // The change waiting for this sign-in lives in the page: a reload or a closed tab would lose it, so the
  // browser asks first (decision 0037).
  useEffect(() => {
    if (!open) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [open]);

  function finish(signedIn: boolean) {
    setOpen(false);
    settle.current?.(signedIn);
    settle.current = null;
  }

  /** In again: the same member's change goes on; another account starts over on the panel. */
  async function signedIn() {
    const now = await api<SessionAnswer>('/api/auth/session', { anonymous: true }).catch(() => null);
    if (member && now?.user && now.user.id !== member.id) {
      flashToast({ title: 'Entraste con otra cuenta', description: 'El cambio de la otra cuenta no se guardó.' });
      goTo('/admin');
      return;
    }
    finish(true);
  }

  return (
    <Dialog open={open} title="Tu sesión terminó" onClose={() => finish(false)}>
      <Suspense fallback={<Loading text="Cargando…" />}>
        <SignInForm email={member?.email ?? ''} onSignedIn={signedIn} onCancel={() => finish(false)} />
      </Suspense>
    </Dialog>
  );
}
