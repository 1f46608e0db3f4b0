import type { ContactState, LostReason } from '../lib/admin/contacts.ts';

/**
 * The one-tap outcomes of a call or a message (issue #26), in the order the
 * panel shows them: the team's list, edited here. Each records a line on the
 * contact's history with its time; it may move the state (`state`: only
 * forward among the open states, or closing the contact) and proposes the
 * next contact (`next`: `days` after today at `time`, Mérida's clock), which
 * the adviser can change before saving. A new key is a new button; nothing
 * else changes (the history keeps the key, so a removed outcome's old lines
 * still read by their key).
 */
export interface Outcome {
  label: string;
  /** The state the contact moves to; null leaves it. */
  state: ContactState | null;
  /** The reason proposed when `state` is cerrado_perdido (the adviser may pick another). */
  lostReason?: LostReason;
  /** The next contact proposed: `days` after today at `time` in Mérida; null clears it. */
  next: { days: number; time: string } | null;
  /** Once recorded, the panel opens "Agendar cita" for the contact (issue #40). */
  opensBooking?: boolean;
}

export const OUTCOMES = {
  no_contesto: { label: 'No contestó', state: null, next: { days: 1, time: '10:00' } },
  hablamos: { label: 'Hablamos', state: 'contactado', next: { days: 3, time: '10:00' } },
  agendo_visita: {
    label: 'Agendó visita',
    state: 'en_seguimiento',
    next: { days: 1, time: '10:00' },
    opensBooking: true,
  },
  no_le_interesa: { label: 'No le interesa', state: 'cerrado_perdido', lostReason: 'otro', next: null },
} as const satisfies Record<string, Outcome>;
