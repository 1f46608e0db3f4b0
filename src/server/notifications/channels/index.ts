import type { NotificationChannel } from '../../../lib/admin/notifications.ts';
import type { NotificationConfig } from '../../config.ts';
import type { ChannelModule } from './channel.ts';
import { emailChannel } from './email.ts';
import { webhookChannel } from './webhook.ts';
import { whatsappChannel } from './whatsapp.ts';

/**
 * Each channel's implementation, keyed by the one list of channels
 * (CHANNEL_REGISTRY, src/lib/admin/notifications.ts): a channel listed there
 * without its module here is a type error.
 */
export const CHANNEL_MODULES: Record<NotificationChannel, ChannelModule> = {
  email: emailChannel,
  webhook: webhookChannel,
  whatsapp: whatsappChannel,
};

/** Whether the channel's variables are set. */
export const channelOn = (channel: NotificationChannel, config: NotificationConfig): boolean =>
  CHANNEL_MODULES[channel].settings(config) !== null;
