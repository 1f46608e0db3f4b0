import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import {
  attemptsText,
  CHANNEL_LABELS,
  type DeliveryEntry,
  type NotificationsOverview,
  PURPOSE_LABELS,
} from '../../../lib/admin/notifications.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';
import { retryDelivery } from '../shared/Deliveries.tsx';
import { card, LoadFailed, Loading, Section } from '../shared/ui.tsx';
import { Channels } from './Channels.tsx';

/** A delivery's work takes a few seconds: the overview is asked again after them. */
const SETTLE_MS = 3000;

function Subject({ entry }: { entry: DeliveryEntry }) {
  if (entry.contactId && entry.contactName) {
    return (
      <a
        className="inline-flex min-h-11 items-center font-semibold underline"
        href={`/admin/prospecto?id=${entry.contactId}`}
      >
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
export function NotificationsView() {
  const client = useQueryClient();
  const overview = useQuery({
    queryKey: keys.notifications,
    queryFn: () => api<NotificationsOverview>('/api/admin/notifications'),
  });
  const refreshSoon = () =>
    setTimeout(() => void client.invalidateQueries({ queryKey: keys.notifications }), SETTLE_MS);

  async function retry(id: string) {
    if (await retryDelivery(id)) refreshSoon();
  }

  if (overview.isError) {
    return (
      <LoadFailed
        error={overview.error}
        retry={() => void overview.refetch()}
        what="No se pudieron cargar las notificaciones."
      />
    );
  }
  if (!overview.data) return <Loading text="Cargando notificaciones..." />;
  const data = overview.data;

  return (
    <div className="grid min-w-0 gap-6">
      <Channels overview={data} refreshSoon={refreshSoon} />

      <Section title="Actividad">
        <dl className="grid gap-3 sm:grid-cols-2">
          <div className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
            <dt className="text-sm text-brand-800">Último envío</dt>
            <dd className="mt-1 wrap-anywhere">
              {data.lastSent ? (
                <>
                  {CHANNEL_LABELS[data.lastSent.channel]} · <Subject entry={data.lastSent} /> ·{' '}
                  {formatShortDate(data.lastSent.sentAt ?? data.lastSent.updatedAt)}
                </>
              ) : (
                'Todavía no se ha enviado ninguna notificación.'
              )}
            </dd>
          </div>
          <div className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
            <dt className="text-sm text-brand-800">En cola o reintentando</dt>
            <dd className="mt-1 text-2xl font-bold">{data.pending}</dd>
          </div>
        </dl>
      </Section>

      <Section title="Fallas recientes">
        {data.failures.length === 0 ? (
          <p className="rounded-2xl bg-white p-6 text-center text-brand-800 ring-1 ring-brand-900/10">
            Ninguna notificación ha fallado.
          </p>
        ) : (
          <ul className="grid gap-2">
            {data.failures.map((failure) => (
              <li key={failure.id} className={`flex flex-wrap items-center justify-between gap-3 ${card}`}>
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
      </Section>
    </div>
  );
}
