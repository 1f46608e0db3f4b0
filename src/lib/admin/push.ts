/**
 * Web Push in the panel (issue #26): what the browser's PushSubscription
 * gives (its JSON: endpoint and keys, RFC 8030 / 8291), checked by the
 * function and typed for the panel. Browser-safe.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import type { TodayScope } from './today.ts';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const INVALID = 'El navegador envió una suscripción no válida. Intenta activar los avisos de nuevo.';

/** POST /api/admin/push-subscriptions: PushSubscription.toJSON() (expirationTime ignored). */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https$/, error: INVALID }).check(z.maxLength(2000, INVALID)),
  keys: z.object(
    {
      p256dh: z
        .string({ error: INVALID })
        .check(z.regex(BASE64URL, INVALID), z.minLength(80, INVALID), z.maxLength(200, INVALID)),
      auth: z
        .string({ error: INVALID })
        .check(z.regex(BASE64URL, INVALID), z.minLength(16, INVALID), z.maxLength(100, INVALID)),
    },
    { error: INVALID },
  ),
});
export type PushSubscriptionInput = z.output<typeof pushSubscriptionSchema>;

/** DELETE /api/admin/push-subscriptions: the device that stops receiving. */
export const pushUnsubscribeSchema = z.object({
  endpoint: z.string({ error: INVALID }).check(z.maxLength(2000, INVALID)),
});

/** GET /api/admin/reminders: the badge, and the key the browser subscribes with (null: push is off). */
export interface RemindersView {
  /**
   * "Vencidos" as "Hoy" opens for the member (decision 0053): the team's
   * overdue contacts for an administrator (`scope: 'all'`), the adviser's own (`'mine'`).
   */
  due: number;
  scope: TodayScope;
  pushKey: string | null;
}

export const PUSH_OFF = 'Los avisos en este dispositivo no están activados en el servidor.';
