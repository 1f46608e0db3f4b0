import { useEffect, useState } from 'react';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import {
  attemptsText,
  CHANNEL_LABELS,
  DELIVERY_STATUS_LABELS,
  type DeliveryView,
} from '../../../lib/admin/notifications.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { api, explain } from '../api.ts';

const STATUS_STYLES: Record<DeliveryView['status'], string> = {
  sent: 'bg-brand-100 text-brand-900',
  pending: 'bg-sand-200 text-brand-900',
  sending: 'bg-sand-200 text-brand-900',
  failed: 'bg-danger-600 text-white',
};

/** "Reintentar": the delivery goes again now; false when the server refused. */
export async function retryDelivery(id: string): Promise<boolean> {
  try {
    await api(`/api/admin/notifications/${id}/retry`, { method: 'POST' });
  } catch (error) {
    showToast({ title: 'No se pudo reintentar', description: explain(error), variant: 'destructive' });
    return false;
  }
  showToast({ title: 'Reintento en camino', description: 'La notificación se enviará en unos segundos.' });
  return true;
}

/** Whether a delivery can be sent again by hand: failed, or waiting for its next attempt. */
export const retryable = (delivery: DeliveryView): boolean =>
  delivery.status === 'failed' || (delivery.status === 'pending' && delivery.attempts > 0);

function deliveryText(delivery: DeliveryView): string {
  if (delivery.status === 'sent' && delivery.sentAt) return `Enviada el ${formatShortDate(delivery.sentAt)}`;
  if (delivery.status === 'failed') return `Falló tras ${attemptsText(delivery.attempts)}: ${delivery.lastError ?? ''}`;
  if (delivery.attempts > 0 && delivery.nextAttemptAt) {
    return `Intento ${delivery.attempts} falló (${delivery.lastError ?? ''}); nuevo intento ${formatShortDate(delivery.nextAttemptAt)}`;
  }
  return 'En cola para enviarse';
}

/**
 * A request's notifications, one chip per channel (enviada, pendiente,
 * falló) with the reason, and "Reintentar" where it applies.
 */
export function DeliveryList({ deliveries, label }: { deliveries: DeliveryView[]; label: string }) {
  const [items, setItems] = useState(deliveries);
  // A reload of the page's data (a tab, the contact) brings fresh states.
  useEffect(() => setItems(deliveries), [deliveries]);
  if (items.length === 0) return <span className="text-xs text-brand-700">Sin avisos</span>;
  async function retry(id: string) {
    if (!(await retryDelivery(id))) return;
    setItems((current) =>
      current.map((item) => (item.id === id ? { ...item, status: 'pending', attempts: 0, nextAttemptAt: null } : item)),
    );
  }
  return (
    <ul className="flex flex-wrap items-center gap-1.5" aria-label={label}>
      {items.map((delivery) => (
        <li key={delivery.id} className="flex items-center gap-1">
          <span
            className={`inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-bold ${STATUS_STYLES[delivery.status]}`}
            title={deliveryText(delivery)}
          >
            {CHANNEL_LABELS[delivery.channel]}: {DELIVERY_STATUS_LABELS[delivery.status]}
            <span className="sr-only">. {deliveryText(delivery)}</span>
          </span>
          {retryable(delivery) && (
            <button
              type="button"
              onClick={() => retry(delivery.id)}
              className="min-h-11 rounded-full px-2 text-xs font-semibold text-brand-800 underline hover:bg-brand-900/5"
              aria-label={`Reintentar ${CHANNEL_LABELS[delivery.channel].toLowerCase()}`}
            >
              Reintentar
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
