import type { NotificationChannel } from '../../lib/admin/notifications.ts';
import type { NotificationConfig } from '../config.ts';

/** What a channel's variables give (src/server/config.ts keeps them under the channel's name). */
export type ChannelSettings<C extends NotificationChannel> = NonNullable<NotificationConfig[C]>;

/**
 * A channel's settings, or null when it is off. Types only: the queue asks
 * this inside every lead function without bundling the channels' senders.
 * A channel of the list with no entry in NotificationConfig is a type error here.
 */
export function channelSettings<C extends NotificationChannel>(
  channel: C,
  config: NotificationConfig,
): ChannelSettings<C> | null {
  const settings = config[channel];
  return settings === null ? null : settings;
}

/** Whether the channel's variables are set. */
export const channelOn = (channel: NotificationChannel, config: NotificationConfig): boolean =>
  channelSettings(channel, config) !== null;
