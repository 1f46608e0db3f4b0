import {
  type AppointmentKind,
  type AppointmentPlace,
  appointmentKind,
  appointmentPlace,
} from '../../data/appointments.ts';
import type { AppointmentStatus, SlotsAnswer, SlotsQuery } from '../../lib/appointments/booking.ts';
import type { ManagedAppointment } from '../../lib/appointments/manage.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';
import { availableSlots, HOLDING_STATUSES, slotsAnswer } from './availability.ts';
import { memberOrder, placeMoment, releaseExpiredHolds, SlotTaken } from './book.ts';
import { appointmentChanged } from './changes.ts';
import { LINK_LIFETIME_AFTER_START_MS, manageToken, manageUrl, payPage, readManageToken } from './link.ts';
import { heldSpan } from './slots.ts';

/**
 * The buyer's own page of an appointment (issue #40, decision 0059): what the
 * signed link /cita?t=<token> reads, and the two changes it may make, a move
 * to another free slot of the same kind and place and a cancellation, each
 * refused inside the kind's cutoff before the start. Every change is one
 * transaction over the appointment's locked row: its line on the contact's
 * history and appointmentChanged() (the messages) commit with it or not at
 * all. A move updates the row in place (the same id, so the link and the
 * reminders follow it); the exclusion constraint appointments_no_overlap has
 * the last word, as for a booking: another free member is tried when the
 * same one is taken meanwhile, and none left is SlotTaken (409).
 */

/** The token is not one of ours, or its appointment no longer exists: 401. */
export class LinkInvalid extends Error {
  override name = 'LinkInvalid';
}
/** The link is past its expiry: 410. */
export class LinkExpired extends Error {
  override name = 'LinkExpired';
}
/** The appointment is cancelled: 410. */
export class AppointmentCancelled extends Error {
  override name = 'AppointmentCancelled';
}
/**
 * A "por pagar" whose hold ended unpaid: its time is no longer kept for it (the next booking of it releases it), so
 * it is neither moved nor shown as changeable: 410.
 */
export class HoldExpired extends Error {
  override name = 'HoldExpired';
}
/** Inside the kind's cutoff before the start, or no longer upcoming: 422. */
export class InsideCutoff extends Error {
  override name = 'InsideCutoff';
}
/** Moved MAX_BUYER_MOVES times through the link already: 409 (the team still moves it from the panel: moveByTeam). */
export class TooManyMoves extends Error {
  override name = 'TooManyMoves';
}

/**
 * Moves a buyer makes through their link: each one sends a template to the
 * appointment's phone, which whoever booked typed (security review,
 * 2026-11-30; migration 0048).
 */
export const MAX_BUYER_MOVES = 3;

const HOUR = 3_600_000;

/** The buyer's link of an appointment: /cita?t=<token>, good until a day after its start. */
export function appointmentLink(siteUrl: string, appointment: { id: string; start: number | string }): string {
  return manageUrl(siteUrl, appointmentToken(appointment));
}

/** The token of an appointment's link (expiry: its start + LINK_LIFETIME_AFTER_START_MS). */
export function appointmentToken(appointment: { id: string; start: number | string }): string {
  const start = typeof appointment.start === 'number' ? appointment.start : Date.parse(appointment.start);
  return manageToken(appointment.id, start + LINK_LIFETIME_AFTER_START_MS);
}

interface Row {
  id: string;
  contact_id: string;
  member_id: string | null;
  status: AppointmentStatus;
  kind: string;
  place: string;
  starts_at: number;
  ends_at: number;
  buyer_moves: number;
  hold_until: number | null;
  refund_forfeited: boolean;
  paid_mxn: number | null;
}

interface Found {
  row: Row;
  kind: AppointmentKind;
  place: AppointmentPlace;
}

const COLUMNS = `id, contact_id, member_id, status, kind, place, extract(epoch FROM starts_at) * 1000 AS starts_at,
  extract(epoch FROM ends_at) * 1000 AS ends_at, buyer_moves, extract(epoch FROM hold_until) * 1000 AS hold_until,
  refund_forfeited,
  (SELECT sum(p.amount_mxn)::int FROM payments p
   WHERE p.appointment_id = appointments.id AND p.status = 'pagado' AND p.refund_requested_at IS NULL) AS paid_mxn`;

/** The appointment the token names, read (and locked when `lock`), or the typed error that says why not. */
async function appointmentOf(db: Queryable, token: string, now: number, lock: boolean): Promise<Found> {
  const reading = readManageToken(token, now);
  if (!reading.ok) throw reading.reason === 'expired' ? new LinkExpired() : new LinkInvalid();
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM appointments WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [reading.appointmentId],
  );
  const stored = rows[0];
  if (!stored) throw new LinkInvalid();
  const row = { ...stored, starts_at: Number(stored.starts_at), ends_at: Number(stored.ends_at) };
  const kind = appointmentKind(row.kind);
  const place = appointmentPlace(row.place);
  // A kind or place taken out of the data: the page shows nothing it cannot name.
  if (!kind || !place) throw new LinkInvalid();
  if (row.status === 'cancelada') throw new AppointmentCancelled();
  if (row.status === 'por_pagar' && row.hold_until !== null && Number(row.hold_until) <= now) throw new HoldExpired();
  return { row, kind, place };
}

const iso = (instant: number) => new Date(instant).toISOString();

function managed({ row, kind, place }: Found, now: number): ManagedAppointment {
  const changeUntil = row.starts_at - kind.cutoffHours * HOUR;
  const upcoming = (HOLDING_STATUSES as readonly string[]).includes(row.status);
  return {
    id: row.id,
    status: row.status,
    kind: kind.id,
    kindName: kind.name,
    place: place.id,
    placeName: place.name,
    timeZone: place.timeZone,
    start: iso(row.starts_at),
    end: iso(row.ends_at),
    changeUntil: iso(changeUntil),
    canChange: upcoming && now < changeUntil,
    // What a cancellation here does to its payment (refunds.ts refundOnCancel decides the same way).
    paid: row.paid_mxn
      ? {
          amountMxn: row.paid_mxn,
          refundUntil:
            kind.refundUntilHours != null && !row.refund_forfeited && now < row.starts_at - kind.refundUntilHours * HOUR
              ? iso(row.starts_at - kind.refundUntilHours * HOUR)
              : null,
        }
      : null,
  };
}

/** A change is refused once it is no longer upcoming or inside the cutoff. */
function assertChangeable(found: Found, now: number): void {
  if (!managed(found, now).canChange) throw new InsideCutoff();
}

/** GET: the appointment as the buyer's page shows it. */
export async function readManaged(db: Database, token: string, now: number): Promise<ManagedAppointment> {
  const found = await appointmentOf(db, token, now, false);
  return { ...managed(found, now), payUrl: payUrlOf(found.row) };
}

/** A "por pagar" is paid from its page too: the buyer may have no e-mail, where its payment link also goes. */
const payUrlOf = ({ id, status, starts_at }: Pick<Row, 'id' | 'status' | 'starts_at'>) =>
  payPage({ id, status, start: starts_at });

/**
 * GET slots: where the appointment may move, the free slots of its kind and
 * place between two dates of the place's calendar, its own time counting as
 * free (half an hour later is a move, not a clash). Refused as a change is.
 */
export async function manageSlots(
  db: Database,
  token: string,
  dates: Pick<SlotsQuery, 'from' | 'to'>,
  now: number,
): Promise<SlotsAnswer> {
  const found = await appointmentOf(db, token, now, false);
  assertChangeable(found, now);
  return slotsAnswer(db, dates, found.kind, found.place, now, found.row.id);
}

/** Who did it, on the contact's history. */
const BY_BUYER = 'desde su enlace';

/** POST cancelar: the appointment cancelled, its time freed, a line on the history, its messages queued. */
export async function cancelManaged(db: Database, token: string, now: number): Promise<ManagedAppointment> {
  return db.transaction(async (tx) => {
    const found = await appointmentOf(tx, token, now, true);
    assertChangeable(found, now);
    const { row, kind, place } = found;
    await tx.query(`UPDATE appointments SET status = 'cancelada', updated_at = now() WHERE id = $1`, [row.id]);
    await tx.query(
      `INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
       VALUES ($1, 'appointment', $2, 'cancelada', $3)`,
      [
        row.contact_id,
        row.status,
        `${kind.name} · ${place.name} · ${placeMoment(row.starts_at, place.timeZone)}: cancelada por la persona ${BY_BUYER}`,
      ],
    );
    await tx.query('UPDATE contacts SET last_activity_at = now() WHERE id = $1', [row.contact_id]);
    await appointmentChanged(tx, row.id, { kind: 'cancelled' }, { by: 'buyer' });
    return managed({ ...found, row: { ...row, status: 'cancelada' } }, now);
  });
}

const EXCLUSION_VIOLATION = '23P01';

/** Who moves an appointment: the buyer through their link, or a member of the team from the panel. */
type Mover = { by: 'buyer' } | { by: 'member'; actor: Actor };

/**
 * Moves the locked appointment to `start` (a free slot of its kind and place,
 * its own time counting as free), with the same member when they are free
 * then, otherwise another free one in book.ts's order; its line on the
 * contact's history and appointmentChanged() (the buyer told, the reminders
 * moved) in the caller's transaction. A buyer's move counts against
 * MAX_BUYER_MOVES and, once the refund window closed, leaves a paid one
 * without refund; the team's does neither. Null: no member is free then.
 */
async function moveInPlace(
  tx: Queryable,
  found: Found,
  start: number,
  now: number,
  mover: Mover,
): Promise<Found | null> {
  const { row, kind, place } = found;
  const slot = (await availableSlots(tx, kind, place, start, start + 1, now, true, row.id)).find(
    (free) => free.start === start,
  );
  if (!slot) return null;
  const ordered = await memberOrder(tx, row.contact_id, slot.members, now);
  const candidates = row.member_id && ordered.includes(row.member_id) ? [row.member_id] : [];
  candidates.push(...ordered.filter((member) => member !== row.member_id));
  const held = heldSpan(kind, start);
  const byBuyer = mover.by === 'buyer';

  for (const member of candidates) {
    await releaseExpiredHolds(tx, member, held);
    await tx.query('SAVEPOINT move_member');
    try {
      await tx.query(
        // A paid appointment the buyer moved once its refund window closed (refundUntilHours before the start it
        // had) stays without refund (migration 0050): moving it later does not reopen the window.
        `UPDATE appointments SET member_id = $2, starts_at = to_timestamp($3 / 1000.0),
           ends_at = to_timestamp($4 / 1000.0), blocked = tstzrange(to_timestamp($5 / 1000.0), to_timestamp($6 / 1000.0)),
           buyer_moves = buyer_moves + CASE WHEN $8 THEN 1 ELSE 0 END, updated_at = now(),
           refund_forfeited = refund_forfeited OR ($8 AND $7::int IS NOT NULL
             AND now() > starts_at - make_interval(hours => $7::int)
             AND EXISTS (SELECT 1 FROM payments p WHERE p.appointment_id = $1 AND p.status = 'pagado'))
         WHERE id = $1`,
        [row.id, member, start, slot.end, held.start, held.end, kind.refundUntilHours, byBuyer],
      );
      await tx.query('RELEASE SAVEPOINT move_member');
    } catch (error) {
      if ((error as { code?: string }).code !== EXCLUSION_VIOLATION) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT move_member');
      continue;
    }
    const moment = `de ${placeMoment(row.starts_at, place.timeZone)} a ${placeMoment(start, place.timeZone)}`;
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value, detail)
       VALUES ($1, $2, $3, 'appointment', $4, $4, $5)`,
      [
        row.contact_id,
        byBuyer ? null : mover.actor.id,
        byBuyer ? null : mover.actor.name,
        row.status,
        `${kind.name} · ${place.name}: reprogramada ${byBuyer ? `por la persona ${BY_BUYER}` : 'por el equipo'}, ${moment}`,
      ],
    );
    await tx.query('UPDATE contacts SET last_activity_at = now() WHERE id = $1', [row.contact_id]);
    await appointmentChanged(
      tx,
      row.id,
      { kind: 'rescheduled', previousStart: row.starts_at, previousMemberId: row.member_id },
      byBuyer ? { by: 'buyer' } : { by: 'member', memberId: mover.actor.id },
    );
    return { ...found, row: { ...row, member_id: member, starts_at: start, ends_at: slot.end } };
  }
  return null;
}

/**
 * POST reprogramar: the appointment moved to `start` (a free slot of its kind
 * and place, its own time counting as free), with the same member when they
 * are free then, otherwise another free one in book.ts's order. The answer
 * carries a fresh token, good until a day after the new start.
 */
export async function rescheduleManaged(
  db: Database,
  token: string,
  start: number,
  now: number,
): Promise<ManagedAppointment & { token: string }> {
  return db.transaction(async (tx) => {
    const found = await appointmentOf(tx, token, now, true);
    assertChangeable(found, now);
    const { row } = found;
    if (start === row.starts_at) return { ...managed(found, now), token: appointmentToken({ id: row.id, start }) };
    if (row.buyer_moves >= MAX_BUYER_MOVES) throw new TooManyMoves();

    const moved = await moveInPlace(tx, found, start, now, { by: 'buyer' });
    if (!moved) throw new SlotTaken();
    return { ...managed(moved, now), token: appointmentToken({ id: row.id, start }), payUrl: payUrlOf(moved.row) };
  });
}

/** What a move from the panel came to (the endpoint's status and words: admin-appointment-move.ts). */
export type TeamMoveResult =
  | { moved: boolean; start: number; end: number; memberId: string | null }
  | 'not_found'
  | 'forbidden'
  | 'closed'
  | 'lapsed'
  | 'begun'
  | 'taken';

/**
 * The team moves an appointment (the buyer asked by phone or WhatsApp): its
 * member or an administrator, while it holds its time and has not begun, to a
 * free slot of its kind and place; no cutoff and no limit of moves (those
 * guard the buyer's link), and a paid one keeps its refund window. The buyer
 * is told as for their own move; the activity log says who moved it. Moving
 * it to its own start answers the same and writes nothing.
 */
export async function moveByTeam(
  db: Database,
  appointmentId: string,
  member: TeamMember & { actor: Actor },
  start: number,
  now = Date.now(),
): Promise<TeamMoveResult> {
  return db.transaction(async (tx): Promise<TeamMoveResult> => {
    const found = await movableByTeam(tx, appointmentId, member, now, true);
    if (typeof found === 'string') return found;
    const { row, name } = found;
    if (start === row.starts_at) return { moved: false, start, end: row.ends_at, memberId: row.member_id };
    const moved = await moveInPlace(tx, found, start, now, { by: 'member', actor: member.actor });
    if (!moved) return 'taken';
    await recordActivity(tx, {
      actor: member.actor,
      kind: 'appointment_moved',
      summary: `Reprogramó la cita de ${name}`,
      details: { appointment: appointmentId, contact: row.contact_id },
    });
    return { moved: true, start, end: moved.row.ends_at, memberId: moved.row.member_id };
  });
}

/** Why the panel may not move an appointment at all (before any slot is looked at). */
export type TeamRefusal = Exclude<TeamMoveResult, 'taken' | { moved: boolean }>;

/** Who asks to move an appointment from the panel: a member, and whether they administer. */
interface TeamMember {
  id: string;
  admin: boolean;
}

/**
 * The appointment a member may move from the panel, with its contact's name, or why not: its member or an
 * administrator, while it holds its time and has not begun. `lock` takes its row for the move.
 */
async function movableByTeam(
  db: Queryable,
  appointmentId: string,
  member: TeamMember,
  now: number,
  lock: boolean,
): Promise<(Found & { name: string }) | TeamRefusal> {
  const { rows } = await db.query<Row & { name: string }>(
    `SELECT ${COLUMNS}, (SELECT c.name FROM contacts c WHERE c.id = appointments.contact_id) AS name
     FROM appointments WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [appointmentId],
  );
  const stored = rows[0];
  const kind = stored && appointmentKind(stored.kind);
  const place = stored && appointmentPlace(stored.place);
  if (!stored || !kind || !place) return 'not_found';
  const row = { ...stored, starts_at: Number(stored.starts_at), ends_at: Number(stored.ends_at) };
  if (row.member_id !== member.id && !member.admin) return 'forbidden';
  if (row.status !== 'por_pagar' && row.status !== 'confirmada') return 'closed';
  if (row.status === 'por_pagar' && row.hold_until !== null && Number(row.hold_until) <= now) return 'lapsed';
  if (row.starts_at <= now) return 'begun';
  return { row, kind, place, name: stored.name };
}

/**
 * The free slots the panel offers for moving an appointment (GET /api/admin/appointments/{id}/slots): those
 * of its kind and place with its own time counting as free, as the buyer's link lists them; a member who
 * alone gives the kind can move it by half an hour. Its current start, as stored now, is not offered (a
 * panel opened before the buyer moved it knows an older one). Refused as the move itself would be.
 */
export async function teamMoveSlots(
  db: Database,
  appointmentId: string,
  member: TeamMember,
  dates: Pick<SlotsQuery, 'from' | 'to'>,
  now = Date.now(),
): Promise<SlotsAnswer | TeamRefusal> {
  const found = await movableByTeam(db, appointmentId, member, now, false);
  if (typeof found === 'string') return found;
  const answer = await slotsAnswer(db, dates, found.kind, found.place, now, found.row.id);
  const current = new Date(found.row.starts_at).toISOString();
  return { ...answer, slots: answer.slots.filter((slot) => slot.start !== current) };
}
