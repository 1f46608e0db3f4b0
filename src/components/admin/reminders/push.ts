import { api } from '../api.ts';

/**
 * Web Push on this device (issue #26): the panel's service worker
 * (public/admin/sw.js, scope /admin/: nothing of it on the public pages)
 * receives the reminders the server sends with web-push, and shows them.
 */
export const SERVICE_WORKER = '/admin/sw.js';
export const SCOPE = '/admin/';

/** Whether this browser can receive Web Push at all (Safari on iPhone: only once installed). */
export const pushSupported = (): boolean =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The panel's worker, registered once (it caches nothing: it only shows reminders). */
const registration = () => navigator.serviceWorker.register(SERVICE_WORKER, { scope: SCOPE, type: 'classic' });

/** This device's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const found = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await found?.pushManager.getSubscription()) ?? null;
}

/** Asks permission, subscribes with the server's VAPID key and tells the server. Throws when refused. */
export async function subscribe(publicKey: string): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('denied');
  const worker = await registration();
  await navigator.serviceWorker.ready;
  const subscription =
    (await worker.pushManager.getSubscription()) ??
    (await worker.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
        c.charCodeAt(0),
      ),
    }));
  await api('/api/admin/push-subscriptions', { method: 'POST', json: subscription.toJSON() });
}

/** Stops the reminders on this device, here and on the server. */
export async function unsubscribe(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api('/api/admin/push-subscriptions', { method: 'DELETE', json: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}
