import { type ContactState, LOST_REASON_LABELS, type LostReason, STATE_LABELS } from '../../../lib/admin/contacts.ts';

export /** A state as the history stores it ("cerrado_perdido:no_responde"), in words. */
function stateWords(value: string | null): string {
  if (!value) return '—';
  const [state, reason] = value.split(':');
  const label = STATE_LABELS[state as ContactState] ?? state ?? '';
  return reason ? `${label} (${LOST_REASON_LABELS[reason as LostReason] ?? reason})` : label;
}
