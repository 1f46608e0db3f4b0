import { useMutation } from '@tanstack/react-query';
import {
  CHANNEL_LABELS,
  CHANNEL_SETTINGS,
  type NotificationChannel,
  type NotificationsOverview,
} from '../../../lib/admin/notifications.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';
import { card, Section } from '../shared/ui.tsx';

/** "Canales": which are on (never their secrets), where they send, and "Enviar prueba". */
export function Channels({ overview, refreshSoon }: { overview: NotificationsOverview; refreshSoon(): void }) {
  const send = useMutation({
    mutationFn: (channel: NotificationChannel) =>
      api('/api/admin/notifications/test', { method: 'POST', json: { channel } }),
    meta: { errorTitle: 'No se pudo enviar la prueba', invalidates: [keys.notifications] },
  });
  const sendTest = (channel: NotificationChannel) =>
    send.mutate(channel, {
      onSuccess: () => {
        showToast({
          title: 'Prueba en camino',
          description: `Revisa ${CHANNEL_LABELS[channel].toLowerCase()} en unos segundos; su estado aparecerá aquí.`,
        });
        refreshSoon();
      },
    });

  return (
    <Section title="Canales">
      <p className="text-sm text-brand-800">
        Cada solicitud nueva avisa al equipo por los canales activos. Si un canal falla, se reintenta tras{' '}
        {overview.retries}.{overview.summary ? ` Resumen diario por correo a las ${overview.summary}.` : ''}
      </p>
      <ul className="grid gap-3 md:grid-cols-3">
        {overview.channels.map((channel) => (
          <li key={channel.channel} className={`grid content-start gap-2 ${card}`}>
            <div className="flex items-center justify-between gap-2">
              <h3 className="font-bold">{CHANNEL_LABELS[channel.channel]}</h3>
              <span
                className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${channel.on ? 'bg-brand-700 text-white' : 'bg-sand-200 text-brand-900'}`}
              >
                {channel.on ? 'Activo' : 'Inactivo'}
              </span>
            </div>
            {channel.on ? (
              <>
                <p className="break-words text-sm text-brand-800">Destino: {channel.target}</p>
                <button
                  type="button"
                  className="btn btn-outline min-h-11 justify-self-start px-4 py-2"
                  disabled={send.isPending}
                  onClick={() => sendTest(channel.channel)}
                >
                  {send.isPending && send.variables === channel.channel ? 'Enviando…' : 'Enviar prueba'}
                </button>
              </>
            ) : (
              <p className="text-sm text-brand-800">Para activarlo, configura {CHANNEL_SETTINGS[channel.channel]}.</p>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}
