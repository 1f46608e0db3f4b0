import { useCallback, useEffect, useState } from 'react';
import { formatShortDate } from '../../lib/admin/columns.ts';
import {
  attemptsText,
  CHANNEL_LABELS,
  type DeliveryEntry,
  type NotificationChannel,
  type NotificationsOverview,
  PURPOSE_LABELS,
} from '../../lib/admin/notifications.ts';
import { showToast } from '../../lib/client/toast.ts';
import { apiCall, goTo } from './api.ts';
import { retryDelivery } from './Deliveries.tsx';

const CHANNEL_HELP: Record<NotificationChannel, string> = {
  email: 'SMTP_URL, NOTIFY_EMAIL_FROM y NOTIFY_EMAIL_TO',
  webhook: 'NOTIFY_WEBHOOK_URL y NOTIFY_WEBHOOK_SECRET',
  whatsapp: 'WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TEMPLATE y WHATSAPP_TO',
};

function Subject({ entry }: { entry: DeliveryEntry }) {
  if (entry.contactId && entry.contactName) {
    return (
      <a className="font-semibold underline" href={`/admin/prospecto?id=${entry.contactId}`}>
        {entry.contactName}
      </a>
    );
  }
  return <span className="font-semibold">{PURPOSE_LABELS[entry.purpose]}</span>;
}

/**
 * /admin#notificaciones: which channels are on (never their secrets), the
 * last notification sent, the ones waiting, recent failures with
 * "Reintentar", and "Enviar prueba" per channel.
 */
export default function NotificationsView() {
  const [overview, setOverview] = useState<NotificationsOverview | null>(null);
  const [failed, setFailed] = useState(false);
  const [sending, setSending] = useState<NotificationChannel | null>(null);

  const load = useCallback(async () => {
    const result = await apiCall<NotificationsOverview>('/api/admin/notifications').catch(() => null);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) return setFailed(true);
    setFailed(false);
    setOverview(result.body);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function sendTest(channel: NotificationChannel) {
    setSending(channel);
    const result = await apiCall<{ error?: string }>('/api/admin/notifications/test', {
      method: 'POST',
      body: JSON.stringify({ channel }),
    }).catch(() => null);
    setSending(null);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) {
      return showToast({
        title: 'No se pudo enviar la prueba',
        description: result?.body.error ?? 'Revisa tu conexión e intenta de nuevo.',
        variant: 'destructive',
      });
    }
    showToast({
      title: 'Prueba en camino',
      description: `Revisa ${CHANNEL_LABELS[channel].toLowerCase()} en unos segundos; su estado aparecerá aquí.`,
    });
    setTimeout(load, 3000);
  }

  async function retry(id: string) {
    if (await retryDelivery(id)) setTimeout(load, 3000);
  }

  if (failed) {
    return (
      <div role="alert" className="grid justify-items-start gap-3 rounded-2xl bg-white p-6 ring-1 ring-brand-900/10">
        <p>No se pudieron cargar las notificaciones.</p>
        <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={load}>
          Reintentar
        </button>
      </div>
    );
  }
  if (!overview) {
    return (
      <p role="status" className="text-brand-800">
        Cargando notificaciones...
      </p>
    );
  }

  return (
    <div className="grid min-w-0 gap-6">
      <section aria-labelledby="channels-title" className="grid gap-3">
        <h2 id="channels-title" className="text-xl font-bold">
          Canales
        </h2>
        <p className="text-sm text-brand-800">
          Cada solicitud nueva avisa al equipo por los canales activos. Si un canal falla, se reintenta tras{' '}
          {overview.retries}.{overview.summary ? ` Resumen diario por correo a las ${overview.summary}.` : ''}
        </p>
        <ul className="grid gap-3 md:grid-cols-3">
          {overview.channels.map((channel) => (
            <li
              key={channel.channel}
              className="grid content-start gap-2 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10"
            >
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
                    disabled={sending !== null}
                    onClick={() => sendTest(channel.channel)}
                  >
                    {sending === channel.channel ? 'Enviando…' : 'Enviar prueba'}
                  </button>
                </>
              ) : (
                <p className="text-sm text-brand-800">Para activarlo, configura {CHANNEL_HELP[channel.channel]}.</p>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="activity-title" className="grid gap-3">
        <h2 id="activity-title" className="text-xl font-bold">
          Actividad
        </h2>
        <dl className="grid gap-3 sm:grid-cols-2">
          <div className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
            <dt className="text-sm text-brand-800">Último envío</dt>
            <dd className="mt-1 wrap-anywhere">
              {overview.lastSent ? (
                <>
                  {CHANNEL_LABELS[overview.lastSent.channel]} · <Subject entry={overview.lastSent} /> ·{' '}
                  {formatShortDate(overview.lastSent.sentAt ?? overview.lastSent.updatedAt)}
                </>
              ) : (
                'Todavía no se ha enviado ninguna notificación.'
              )}
            </dd>
          </div>
          <div className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
            <dt className="text-sm text-brand-800">En cola o reintentando</dt>
            <dd className="mt-1 text-2xl font-bold">{overview.pending}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="failures-title" className="grid gap-3">
        <h2 id="failures-title" className="text-xl font-bold">
          Fallas recientes
        </h2>
        {overview.failures.length === 0 ? (
          <p className="rounded-2xl bg-white p-6 text-center text-brand-800 ring-1 ring-brand-900/10">
            Ninguna notificación ha fallado.
          </p>
        ) : (
          <ul className="grid gap-2">
            {overview.failures.map((failure) => (
              <li
                key={failure.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10"
              >
                <div className="min-w-0 wrap-anywhere">
                  <p>
                    {CHANNEL_LABELS[failure.channel]} · <Subject entry={failure} /> ·{' '}
                    {formatShortDate(failure.updatedAt)}
                  </p>
                  <p className="break-words text-sm text-danger-600">
                    Falló tras {attemptsText(failure.attempts)}: {failure.lastError}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-outline min-h-11 px-4 py-2"
                  onClick={() => retry(failure.id)}
                  aria-label={`Reintentar ${CHANNEL_LABELS[failure.channel].toLowerCase()} de ${failure.contactName ?? PURPOSE_LABELS[failure.purpose]}`}
                >
                  Reintentar
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
