/** What can happen to an appointment, and who made it happen: what appointmentChanged() (changes.ts) is told. */
export type AppointmentChange =
  | { kind: 'booked' }
  /** Moved; `previousMemberId`: who gave it before, when the move gave it to another member (told it is gone). */
  | { kind: 'rescheduled'; previousStart: number; previousMemberId?: string | null }
  | { kind: 'cancelled' }
  | { kind: 'attended' }
  | { kind: 'no_show' }
  /** Its payment arrived (issue #41): 'por_pagar' became 'confirmada'. */
  | { kind: 'paid' };

/** Who made the change: the buyer (site, link, WhatsApp), a member of the team, or the system (an expired hold). */
export type ChangeActor = { by: 'buyer' } | { by: 'member'; memberId: string } | { by: 'system' };
