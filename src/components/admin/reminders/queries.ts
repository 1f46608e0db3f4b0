import { useQuery } from '@tanstack/react-query';
import type { RemindersView } from '../../../lib/admin/push.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/** How often the badge asks again while the panel is open: a reminder comes due on its own. */
const EVERY_MS = 60_000;

/** The badge's count of due next contacts and the key to subscribe this device with. */
export const useReminders = (enabled: boolean) =>
  useQuery({
    queryKey: keys.reminders,
    queryFn: () => api<RemindersView>('/api/admin/reminders'),
    enabled,
    refetchInterval: EVERY_MS,
  });
