import type { QueryKey } from '@tanstack/react-query';

/** Every cached answer of the panel, by name: what a change invalidates is named here. */
export const keys = {
  session: ['session'],
  metrics: ['metrics'],
  contacts: ['contacts'],
  today: ['today'],
  todayOf: (scope: string) => ['today', scope],
  todaySection: (scope: string, section: string, cursor: string) => ['today', scope, section, cursor],
  contactList: (filter: object) => ['contacts', filter],
  pipeline: ['pipeline'],
  pipelineOf: (assigned: string) => ['pipeline', assigned],
  pipelineColumn: (assigned: string, state: string, cursor: string) => ['pipeline', assigned, state, cursor],
  contact: (id: string) => ['contact', id],
  /** The mutation that erases a contact's person (ARCO): while it runs, nothing of the contact is asked again. */
  erasePerson: (id: string) => ['erase-person', id],
  calls: ['calls'],
  call: (id: string) => ['call', id],
  leads: (kind: string) => ['leads', kind],
  notifications: ['notifications'],
  team: ['team'],
  activity: (filter: object) => ['activity', filter],
  passkeys: ['passkeys'],
  reminders: ['reminders'],
  /** Appointments wherever the panel shows them (the calendar, a contact's list): a mark asks them again. */
  appointments: ['appointments'],
  whatsapp: ['whatsapp'],
  conversations: (filter: object) => ['whatsapp', 'conversations', filter],
  unread: ['whatsapp', 'unread'],
  messages: (contactId: string) => ['whatsapp', 'messages', contactId],
  olderMessages: (contactId: string, from: string) => ['whatsapp', 'messages', contactId, 'older', from],
  whatsappState: (contactId: string) => ['whatsapp', 'state', contactId],
  quickReplies: (contactId: string) => ['whatsapp', 'quick-replies', contactId],
} satisfies Record<string, QueryKey | ((...args: never[]) => QueryKey)>;
