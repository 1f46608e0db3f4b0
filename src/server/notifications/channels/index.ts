import type { NotificationChannel } from '../../../lib/admin/notifications.ts';
import type { ChannelSettings } from '../../outbox/channels.ts';
import type { ChannelModule } from './channel.ts';
import { emailChannel } from './email.ts';
import { webhookChannel } from './webhook.ts';
import { whatsappChannel } from './whatsapp.ts';

/**
 * Each channel's implementation, keyed by the one list of channels
 * (CHANNEL_REGISTRY, src/lib/admin/notifications.ts): a channel listed there
 * without its module here is a type error, and so is a module whose settings
 * are not its entry of NotificationConfig (src/server/outbox/channels.ts).
 */
export const CHANNEL_MODULES: { [C in NotificationChannel]: ChannelModule<ChannelSettings<C>> } = {
  email: emailChannel,
  webhook: webhookChannel,
  whatsapp: whatsappChannel,
};
