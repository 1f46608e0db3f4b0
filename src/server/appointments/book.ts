import { createHash } from 'node:crypto';
import {
  type AppointmentKind,
  type AppointmentPlace,
  appointmentKind,
  appointmentPlace,
} from '../../data/appointments.ts';
import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import type { AppointmentStatus, Booking, BookingAnswer } from '../../lib/appointments/booking.ts';
import { clockFormat } from '../clock-formats.ts';
import { type Database, type Queryable, transactionRetried } from '../db/database.ts';
import { visitTouch } from '../leads/touch.ts';
import { availableSlots } from './availability.ts';
import { appointmentChanged, type ChangeActor } from './changes.ts';
import { heldSpan } from './slots.ts';

/**
 * A booking (issue #40, decision 0058): the person deduplicated into their
 * contact (touch_contact(), as every lead), a free member picked, the
 * appointment inserted and its line on the contact's history, in one
 * transaction. The database has the last word on double booking: the
 * exclusion constraint appointments_no_overlap (migration 0037) refuses a
 * second appointment over a member's held time with 23P01, whatever the
 * timing; the insert is then tried with the next free member (the SQL
 * function place_appointment(), migration 0040, in one round trip), and
 * when none is left the whole booking is undone (no contact is created for a
 * booking that did not happen) and SlotTaken is thrown.
 */

/** The kind does not exist (the data changed under the visitor's page). */
export class UnknownKind extends Error {
  override name = 'UnknownKind';
}
/** The place does not exist, or the kind is not given there. */
export class UnknownPlace extends Error {
  override name = 'UnknownPlace';
}
/** The start is not a free slot, or every member free at it was taken meanwhile. */
export class SlotTaken extends Error {
  override name = 'SlotTaken';
}
/** The idempotency key was used before with another booking. */
export class BookingKeyReused extends Error {
  override name = 'BookingKeyReused';
}
/** The person already has MAX_UPCOMING_UNVERIFIED appointments ahead (a booking whose phone nobody proved). */
export class TooManyAppointments extends Error {
  override name = 'TooManyAppointments';
}

/** The person already holds an appointment at that time (a second submit, a second tap on a list's row). */
export class AlreadyHeld extends Error {
  override name = 'AlreadyHeld';
}

/**
 * Appointments ahead a person may have from bookings whose phone nobody
 * proved (the site, the voice agent): each one sends templates to that
 * phone, so a visitor cannot make our number write to someone else's without
 * end. Bookings from a WhatsApp conversation (the phone's owner wrote) and
 * from the panel (the team) have no such limit.
 */
export const MAX_UPCOMING_UNVERIFIED = 3;
const UNVERIFIED_SOURCES: ReadonlySet<string> = new Set(['sitio', 'voz']);
/** place_appointment()'s refusal when the person has too many appointments ahead (migration 0048). */
const TOO_MANY_APPOINTMENTS = 'CB001';
/** place_appointment()'s refusal of a second appointment at a time the person holds one (migration 0053). */
const ALREADY_HELD = 'CB002';

export type BookingSource = 'sitio' | 'panel' | 'whatsapp' | 'voz';

export interface BookingRequest {
  booking: Booking;
  source: BookingSource;
  /** The Idempotency-Key header, when sent. */
  idempotencyKey: string | null;
  now: number;
  /** Who books: the buyer unless said (a member books from the panel). */
  actor?: ChangeActor;
  /** What else the booking writes in its own transaction once stored (the panel's activity entry). */
  alsoRecord?: (tx: Queryable, answer: BookingAnswer) => Promise<void>;
  /** The browser's User-Agent, kept with the visit's touch as a lead's is (leads/repository.ts). */
  userAgent?: string | null;
}

/**
 * What a member's booking changes of the contact before it is placed: a partner's session makes them a
 * partner, a visit a buyer (as touch_contact() does for a lead), and a lost contact is theirs to follow
 * again: back to `nuevo`, the line signed.
 */
async function touchForMember(tx: Queryable, phone: string, buyer: boolean, memberId: string): Promise<void> {
  await tx.query(
    `WITH before AS (SELECT id, state FROM contacts WHERE phone = $1 FOR UPDATE),
     reopened AS (
       UPDATE contacts c SET is_buyer = c.is_buyer OR $3, is_partner = c.is_partner OR NOT $3,
         state = CASE WHEN b.state = 'cerrado_perdido' THEN 'nuevo' ELSE c.state END,
         lost_reason = CASE WHEN b.state = 'cerrado_perdido' THEN NULL ELSE c.lost_reason END,
         version = c.version + CASE WHEN b.state = 'cerrado_perdido' THEN 1 ELSE 0 END, last_activity_at = now()
       FROM before b WHERE c.id = b.id
       RETURNING c.id, b.state AS was)
     INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value, detail)
     SELECT r.id, u.id, coalesce(u.name, u.email), 'reopened', 'cerrado_perdido', 'nuevo', 'Al agendarle una cita desde el panel'
     FROM reopened r, users u WHERE u.id = $2 AND r.was = 'cerrado_perdido'`,
    [phone, memberId, buyer],
  );
}

/** The kind and the place of a booking or a slots query, or the typed error that says which is wrong. */
export function kindAndPlace(kindId: string, placeId: string): { kind: AppointmentKind; place: AppointmentPlace } {
  const kind = appointmentKind(kindId);
  if (!kind) throw new UnknownKind(kindId);
  const place = appointmentPlace(placeId);
  if (!place || !kind.places.includes(place.id)) throw new UnknownPlace(placeId);
  return { kind, place };
}

/** SHA-256 of what a booking asks for: what its idempotency key is bound to. */
export function bookingFingerprint(booking: Booking): string {
  const { name, phone, kind, place, start } = booking;
  return createHash('sha256')
    .update(JSON.stringify(['appointments', name, phone, kind, place, Date.parse(start)]))
    .digest('hex');
}

interface AppointmentRow {
  id: string;
  status: AppointmentStatus;
  kind: string;
  place: string;
  starts_at: number;
  ends_at: number;
  hold_until: number | null;
  price_mxn: number | null;
  idempotency_fingerprint: string | null;
}

const RETURNING = `id, status, kind, place, extract(epoch FROM starts_at) * 1000 AS starts_at,
  extract(epoch FROM ends_at) * 1000 AS ends_at, extract(epoch FROM hold_until) * 1000 AS hold_until, price_mxn,
  idempotency_fingerprint`;

const iso = (milliseconds: number | string) => new Date(Number(milliseconds)).toISOString();

function answerOf(row: AppointmentRow): BookingAnswer {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    place: row.place,
    start: iso(row.starts_at),
    end: iso(row.ends_at),
    holdUntil: row.hold_until === null ? null : iso(row.hold_until),
    priceMxn: row.price_mxn,
  };
}

const MOMENT: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** "sábado 6 de marzo de 2027, 10:00" on the place's clock. */
export function placeMoment(instant: number, timeZone: string): string {
  return clockFormat('moment', 'es-MX', timeZone, MOMENT).format(instant);
}

/** Books `request`: the appointment's answer (a replay of its key answers the same), or a typed error. */
export async function bookAppointment(db: Database, request: BookingRequest): Promise<BookingAnswer> {
  const { booking, now } = request;
  const { kind, place } = kindAndPlace(booking.kind, booking.place);
  const start = Date.parse(booking.start);
  const fingerprint = bookingFingerprint(booking);

  // Two bookings that insert into one member's time at once can each wait for the other in the exclusion
  // constraint's check, and PostgreSQL ends one of them as a deadlock (fifty visitors after one slot got 503s):
  // that booking is tried again, and then finds the slot taken (409) or the next member free.
  return transactionRetried(db, async (tx) => {
    if (request.idempotencyKey) {
      // Requests with one key queue here; each sees what the one before committed.
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `appointments:${request.idempotencyKey}`,
      ]);
      const { rows } = await tx.query<AppointmentRow>(
        `SELECT ${RETURNING} FROM appointments WHERE idempotency_key = $1`,
        [request.idempotencyKey],
      );
      const existing = rows[0];
      if (existing) {
        if (existing.idempotency_fingerprint !== fingerprint) throw new BookingKeyReused();
        return answerOf(existing);
      }
    }

    const slot = (await availableSlots(tx, kind, place, start, start + 1, now, true)).find(
      (free) => free.start === start,
    );
    if (!slot)
      throw (await heldByThem(tx, booking.phone, start, kind.durationMinutes)) ? new AlreadyHeld() : new SlotTaken();

    const held = heldSpan(kind, start);
    const paid = kind.priceMxn !== null;
    const status: AppointmentStatus = paid ? 'por_pagar' : 'confirmada';
    // One round trip: the person deduplicated into their contact (touch_contact(), as every lead; a partner's
    // session does not make them a buyer), then the members tried in order (the appointment keeps the booking's
    // own e-mail, where its messages go: migration 0048), each expired hold in the way
    // released, 23P01 moving on (place_appointment, 0040). No row: the slot was taken, and the rollback
    // undoes the contact too.
    // A member booking from the panel books for a contact the team knows: no lead, so no touch_contact() (its
    // "Nueva solicitud de un prospecto cerrado" would be a request nobody sent, signed by nobody). A lost contact
    // is reopened by the member, signed; a won one stays won.
    const fromPanel = request.source === 'panel' && request.actor?.by === 'member';
    if (fromPanel && request.actor?.by === 'member') {
      await touchForMember(tx, booking.phone, kind.audience !== 'socios', request.actor.memberId);
    }
    const person = fromPanel
      ? '(SELECT id FROM contacts WHERE phone = $1 AND num_nulls($2::text, $3::text, $4::boolean, $21::jsonb) >= 0)'
      : '(SELECT touch_contact($1, $2, $2, $3, NULL, $4, $21::jsonb))';
    const { rows } = await tx
      .query<AppointmentRow & { member_id: string | null }>(
        `SELECT ${RETURNING}, member_id
       FROM place_appointment(${person}, $5::uuid[], $6, $7,
         to_timestamp($8 / 1000.0), to_timestamp($9 / 1000.0),
         tstzrange(to_timestamp($10 / 1000.0), to_timestamp($11 / 1000.0)), $12, $13, $14, $15, $16, $17, $18, $19,
         $3, $20)
       WHERE id IS NOT NULL`,
        [
          booking.phone,
          booking.name,
          booking.email ?? null,
          kind.audience !== 'socios',
          slot.members,
          kind.id,
          place.id,
          start,
          slot.end,
          held.start,
          held.end,
          status,
          request.source,
          paid ? kind.holdMinutes : null,
          kind.priceMxn,
          booking.privacy_version ?? PRIVACY_NOTICE_VERSION,
          request.idempotencyKey,
          fingerprint,
          `${kind.name} · ${place.name} · ${placeMoment(start, place.timeZone)}`,
          UNVERIFIED_SOURCES.has(request.source) ? MAX_UPCOMING_UNVERIFIED : null,
          // The visit's touch (the site's bookings): a person who books first keeps the campaign that brought them.
          JSON.stringify(visitTouch(booking, request.userAgent)),
        ],
      )
      .catch((error: unknown) => {
        const code = (error as { code?: string }).code;
        if (code === TOO_MANY_APPOINTMENTS) throw new TooManyAppointments();
        if (code === ALREADY_HELD) throw new AlreadyHeld();
        throw error;
      });
    const row = rows[0];
    if (!row) throw new SlotTaken();
    await appointmentChanged(tx, row.id, { kind: 'booked' }, request.actor ?? { by: 'buyer' }, {
      start: Number(row.starts_at),
      memberId: row.member_id,
      source: request.source,
    });
    const answer = answerOf(row);
    await request.alsoRecord?.(tx, answer);
    return answer;
  });
}

/** An appointment `a` that holds its time now (SQL): confirmed, or an unpaid hold not yet expired. */
export const HOLDS_TIME = "(a.status = 'confirmada' OR (a.status = 'por_pagar' AND a.hold_until > now()))";

/** The booking made under `key`, or null (a retry whose details differ, another spelling of the name, finds it). */
export async function bookedWithKey(db: Queryable, key: string): Promise<BookingAnswer | null> {
  const { rows } = await db.query<AppointmentRow>(`SELECT ${RETURNING} FROM appointments WHERE idempotency_key = $1`, [
    key,
  ]);
  return rows[0] ? answerOf(rows[0]) : null;
}

/**
 * Whether the person of `phone` holds an appointment over the time asked
 * (its slot is not free because they took it: a second tap, a second submit).
 */
async function heldByThem(tx: Queryable, phone: string, start: number, minutes: number): Promise<boolean> {
  const { rows } = await tx.query<{ held: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM appointments a JOIN contacts c ON c.id = a.contact_id
       WHERE c.phone = $1 AND a.starts_at < to_timestamp($3 / 1000.0) AND a.ends_at > to_timestamp($2 / 1000.0)
         AND ${HOLDS_TIME}) AS held`,
    [phone, start, start + minutes * 60_000],
  );
  return rows[0]?.held === true;
}

/**
 * The members free for a move in the order they are tried (manage.ts): the
 * contact's own adviser first, then whoever has the fewest appointments held
 * from now on, then by id; place_appointment() orders a booking's the same way.
 */
export async function memberOrder(
  tx: Queryable,
  contact: string,
  free: readonly string[],
  now: number,
): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT m.id
     FROM unnest($1::uuid[]) AS m (id)
     LEFT JOIN contacts c ON c.id = $2 AND c.assigned_to = m.id
     ORDER BY (c.id IS NOT NULL) DESC,
       (SELECT count(*) FROM appointments a
        WHERE a.member_id = m.id AND a.ends_at > to_timestamp($3 / 1000.0)
          AND ${HOLDS_TIME}),
       m.id`,
    [free, contact, now],
  );
  return rows.map((row) => row.id);
}

/** Cancels the member's expired holds over `held` (a 'por_pagar' never paid), each a line of its contact's history. */
export async function releaseExpiredHolds(tx: Queryable, member: string, held: { start: number; end: number }) {
  await tx.query(
    `WITH released AS (
       UPDATE appointments SET status = 'cancelada', updated_at = now()
       WHERE member_id = $1 AND status = 'por_pagar' AND hold_until <= now()
         AND blocked && tstzrange(to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0))
       RETURNING contact_id)
     INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
     SELECT contact_id, 'appointment', 'por_pagar', 'cancelada', 'Apartado vencido sin pago: el horario se liberó'
     FROM released`,
    [member, held.start, held.end],
  );
}
