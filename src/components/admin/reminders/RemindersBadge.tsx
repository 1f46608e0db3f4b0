import { useEffect, useState } from 'react';
import { showToast } from '../../../lib/client/toast.ts';
import { explain } from '../api.ts';
import { currentSubscription, pushSupported, subscribe, unsubscribe } from './push.ts';
import { useReminders } from './queries.ts';

/**
 * The panel's reminders: a badge with the member's due next contacts (the
 * installed panel's icon shows it too, where the browser allows), and
 * "Activar avisos" to get them as notifications on this device (Web Push),
 * offered only when the server has its keys and the browser can.
 */
export function RemindersBadge() {
  const reminders = useReminders(true);
  const due = reminders.data?.due ?? 0;
  const pushKey = reminders.data?.pushKey ?? null;
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!pushKey || !pushSupported()) return;
    void currentSubscription().then((found) => setSubscribed(found !== null));
  }, [pushKey]);

  useEffect(() => {
    const badge = navigator as Navigator & { setAppBadge?(count: number): Promise<void> };
    void badge.setAppBadge?.(due).catch(() => {});
  }, [due]);

  async function toggle() {
    if (!pushKey) return;
    setBusy(true);
    try {
      if (subscribed) {
        await unsubscribe();
        setSubscribed(false);
        showToast({ title: 'Avisos desactivados en este dispositivo' });
      } else {
        await subscribe(pushKey);
        setSubscribed(true);
        showToast({ title: 'Avisos activados', description: 'Te avisaremos aquí cuando toque un próximo contacto.' });
      }
    } catch (error) {
      const denied = (error as Error).message === 'denied';
      showToast({
        title: 'No se pudieron activar los avisos',
        description: denied
          ? 'El navegador no dio permiso. Actívalo en los ajustes del sitio.'
          : explain(error, 'Intenta de nuevo.'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <span
        className={`inline-flex min-h-11 items-center rounded-full px-4 text-sm font-bold ${due > 0 ? 'bg-danger-600 text-white' : 'bg-white text-brand-800 ring-1 ring-brand-900/15'}`}
        role="status"
        data-testid="reminders"
      >
        {due === 0 ? 'Sin contactos vencidos' : `${due} ${due === 1 ? 'contacto vencido' : 'contactos vencidos'}`}
      </span>
      {pushKey && subscribed !== null && (
        <button type="button" className="btn btn-outline min-h-11 px-4 py-2 text-sm" disabled={busy} onClick={toggle}>
          {subscribed ? 'Desactivar avisos' : 'Activar avisos'}
        </button>
      )}
    </div>
  );
}
