import { useEffect, useState } from 'react';
import type { TodayScope } from '../../../lib/admin/today.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { explain } from '../api.ts';
import { PanelLink } from '../shared/PanelLink.tsx';
import { currentSubscription, pushSupported, subscribe, unsubscribe } from './push.ts';
import { useReminders } from './queries.ts';

/** What the badge counts, in its own words: "Vencidos" of "Hoy", the team's or the member's own. */
export function overdueText(due: number, scope: TodayScope): string {
  const whose = scope === 'all' ? 'del equipo' : due === 1 ? 'tuyo' : 'tuyos';
  if (due === 0) return `Sin contactos vencidos ${scope === 'all' ? 'en el equipo' : 'tuyos'}`;
  return `${due.toLocaleString('es-MX')} ${due === 1 ? 'contacto vencido' : 'contactos vencidos'} ${whose}`;
}

/**
 * The panel's reminders: a badge with "Vencidos" as "Hoy" counts them (the
 * team's for an administrator, an adviser's own; one server count, decision
 * 0053), a link to their list (the
 * installed panel's icon shows it too, where the browser allows), and
 * "Activar avisos" to get them as notifications on this device (Web Push),
 * offered only when the server has its keys and the browser can.
 */
export function RemindersBadge() {
  const reminders = useReminders(true);
  const due = reminders.data?.due ?? 0;
  const scope = reminders.data?.scope ?? 'mine';
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
      <span role="status" data-testid="reminders">
        <PanelLink
          href={`/admin?vista=prospectos&agenda=vencidos${scope === 'mine' ? '&assigned=me' : ''}`}
          className={`inline-flex min-h-11 items-center rounded-full px-4 text-sm font-bold ${due > 0 ? 'bg-danger-600 text-white hover:underline' : 'bg-white text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5'}`}
        >
          {overdueText(due, scope)}
          <span className="sr-only">: su próximo contacto era para antes de hoy</span>
        </PanelLink>
      </span>
      {pushKey && subscribed !== null && (
        <button type="button" className="btn btn-outline min-h-11 px-4 py-2 text-sm" disabled={busy} onClick={toggle}>
          {subscribed ? 'Desactivar avisos' : 'Activar avisos'}
        </button>
      )}
    </div>
  );
}
