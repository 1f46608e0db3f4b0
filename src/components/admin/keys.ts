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
  whatsapp: ['whatsapp'],
  conversations: (filter: object) => ['whatsapp', 'conversations', filter],
  unread: ['whatsapp', 'unread'],
  messages: (contactId: string) => ['whatsapp', 'messages', contactId],
  olderMessages: (contactId: string, from: string) => ['whatsapp', 'messages', contactId, 'older', from],
  whatsappState: (contactId: string) => ['whatsapp', 'state', contactId],
  quickReplies: (contactId: string) => ['whatsapp', 'quick-replies', contactId],
  /** Issue #40: calendars, contacts' appointments and availability; a booking or a mark invalidates `appointments`. */
  appointments: ['appointments'],
  calendar: (from: string, to: string, member: string) => ['appointments', 'calendar', from, to, member],
  contactAppointments: (contactId: string) => ['appointments', 'contact', contactId],
  slots: (kind: string, place: string, from: string, to: string) => ['appointments', 'slots', kind, place, from, to],
  moveSlots: (appointment: string, from: string, to: string) => ['appointments', 'move-slots', appointment, from, to],
  bookingOptions: ['booking-options'],
  availability: (member: string) => ['availability', member],
  /** Issue #41: the payments list, by filter. */
  payments: (filter: object) => ['payments', filter],
} satisfies Record<string, QueryKey | ((...args: never[]) => QueryKey)>;
