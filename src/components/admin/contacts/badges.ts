import type { ContactState } from '../../../lib/admin/contacts.ts';

/** A contact's state as a coloured badge, in the list and on its page. */
export const STATE_BADGE: Record<ContactState, string> = {
  nuevo: 'bg-terracotta-700 text-white',
  contactado: 'bg-brand-100 text-brand-900',
  en_seguimiento: 'bg-brand-700 text-white',
  visita_agendada: 'bg-brand-200 text-brand-900',
  visito: 'bg-brand-600 text-white',
  cerrado_ganado: 'bg-brand-900 text-white',
  cerrado_perdido: 'bg-sand-200 text-brand-900',
};
