import {
  type AppointmentKind,
  type AppointmentPlace,
  appointmentKind,
  appointmentPlace,
} from '../../data/appointments.ts';
import type { AppointmentStatus, BookingAnswer } from '../../lib/appointments/booking.ts';
import { clockName } from '../../lib/appointments/clock.ts';
import { formatMxn } from '../../lib/money.ts';
import { greetingName } from '../../lib/person-name.ts';
import { CUSTOMER_SERVICE_WINDOW_HOURS } from '../../lib/whatsapp/contract.ts';
import {
  AlreadyHeld,
  BookingKeyReused,
  bookAppointment,
  bookedWithKey,
  placeMoment,
  SlotTaken,
} from '../appointments/book.ts';
import { buyerPayUrl } from '../appointments/link.ts';
import type { Database, Queryable } from '../db/database.ts';
import { logJson } from '../log.ts';
import { queueAutomaticAnswer } from './outbound.ts';
import { listReplyId, readSlotRowId, SLOT_CHOICE_PREFIX } from './slot-choice.ts';
import { freeSlotList, type SlotListMessage } from './slot-list.ts';

/**
 * A buyer's choice from the free slots' list (issue #40, decision 0063): the
 * queue's job for an inbound `list_reply` whose row id is ours. The row id
 * is trusted only as a choice (slot-choice.ts: signed for this contact);
 * the person booked is the contact whose number wrote, with their phone and
 * name, source `whatsapp`, through bookAppointment(), idempotent on the
 * inbound message (its key `whatsapp-choice:{message id}`; Meta retries
 * webhooks, and a replay stores no second message, so adds no second job).
 * The answer, free-form inside the window opened by that very reply, is the
 * confirmation, or the apology with a fresh list when the slot was taken
 * meanwhile; each answer once (its own idempotency key), shown in the
 * conversation as an automatic message. The booking is a line of the
 * contact's history (bookAppointment).
 */

export const CHOICE_TEXTS = {
  taken: 'Lo sentimos, ese horario se ocupó mientras lo elegías. ',
  noneLeft:
    'Lo sentimos, ese horario ya no está disponible y por ahora no hay otros libres. Un asesor te escribirá para acordar tu cita.',
  gone: 'Lo sentimos, ese tipo de cita ya no está disponible. Un asesor te escribirá para ayudarte a agendar.',
  // A booking made here is confirmed here in words, without a link (no template): the chat is where to change it.
  alreadyHeld: 'Ya tienes una cita con nosotros a esa hora. Si quieres cambiarla o cancelarla, escríbenos aquí mismo.',
} as const;

export type ChoiceOutcome = 'not_ours' | 'forged' | 'gone' | 'booked' | 'taken' | 'held';

interface ChoiceRow {
  contact_id: string;
  raw: unknown;
  name: string;
  phone: string;
  window_open: boolean;
}

/** The confirmation's text: kind, place, day and time on the place's clock, and a paid kind's hold with where to pay. */
export function confirmationText(
  name: string,
  kind: AppointmentKind,
  place: AppointmentPlace,
  booked: { status: AppointmentStatus; start: number; holdUntil: number | null; priceMxn: number | null },
  /** Asked only for a paid kind held unpaid: a free visit's confirmation never depends on the payments' setup. */
  payLink: () => string,
): string {
  const greeting = greetingName(name);
  const lines = [
    `¡Listo${greeting ? `, ${greeting}` : ''}! Tu cita quedó agendada:`,
    `${kind.name} · ${place.name}`,
    `${placeMoment(booked.start, place.timeZone)} (hora de ${clockName(place.timeZone)})`,
    place.address,
  ];
  if (booked.status === 'por_pagar' && booked.holdUntil !== null) {
    lines.push(
      '',
      `Tu lugar queda apartado hasta el ${placeMoment(booked.holdUntil, place.timeZone)}` +
        (booked.priceMxn !== null ? `: completa el pago de ${formatMxn(booked.priceMxn)} aquí: ${payLink()}` : '.'),
    );
  }
  return lines.join('\n');
}

/** Books the choice of inbound message `messageId` and answers it; what happened. */
export async function bookChoice(db: Database, messageId: string, now = Date.now()): Promise<ChoiceOutcome> {
  const { rows } = await db.query<ChoiceRow>(
    `SELECT m.contact_id, m.raw, c.name, c.phone,
            coalesce(w.last_inbound_at > now() - make_interval(hours => $2), false) AS window_open
     FROM whatsapp_messages m JOIN contacts c ON c.id = m.contact_id
     LEFT JOIN whatsapp_conversations w ON w.contact_id = c.id
     WHERE m.id = $1 AND m.direction = 'in' AND m.kind = 'interactive'`,
    [messageId, CUSTOMER_SERVICE_WINDOW_HOURS],
  );
  const message = rows[0];
  const rowId = message ? listReplyId(message.raw) : null;
  if (!message || !rowId?.startsWith(SLOT_CHOICE_PREFIX)) return 'not_ours';
  const choice = readSlotRowId(message.contact_id, rowId);
  if (!choice) {
    // Not a row we sent to this contact: nothing is booked, and the adviser reads the message as any other.
    logJson('warn', { event: 'whatsapp_slot_choice_refused', message: messageId });
    return 'forged';
  }
  const kind = appointmentKind(choice.kind);
  const place = appointmentPlace(choice.place);
  if (!kind || !place || !kind.places.includes(place.id)) {
    await answer(db, message, `wa-gone:${messageId}`, { kind: 'text', body: CHOICE_TEXTS.gone });
    return 'gone';
  }

  const key = `whatsapp-choice:${messageId}`;
  let booked = await bookedBy(db, key);
  if (!booked) {
    try {
      const answered = await bookAppointment(db, {
        booking: {
          name: message.name,
          phone: message.phone,
          kind: kind.id,
          place: place.id,
          start: new Date(choice.start).toISOString(),
        } as Parameters<typeof bookAppointment>[1]['booking'],
        source: 'whatsapp',
        idempotencyKey: key,
        now,
      });
      booked = bookedOf(answered);
    } catch (error) {
      if (error instanceof BookingKeyReused) {
        // Booked by an earlier run under another name (the contact was renamed between): that booking stands.
        booked = await bookedBy(db, key);
      } else if (error instanceof SlotTaken) {
        const fresh = await freeSlotList(db, message.contact_id, kind.id, place.id, now, CHOICE_TEXTS.taken);
        await answer(
          db,
          message,
          `wa-taken:${messageId}`,
          fresh ? { kind: 'interactive', list: fresh.list } : { kind: 'text', body: CHOICE_TEXTS.noneLeft },
        );
        return 'taken';
      } else if (error instanceof AlreadyHeld) {
        // A second tap on the row they booked (or one over another of theirs): nothing booked twice.
        await answer(db, message, `wa-held:${messageId}`, { kind: 'text', body: CHOICE_TEXTS.alreadyHeld });
        return 'held';
      } else {
        throw error;
      }
      if (!booked) throw error;
    }
  }
  await answer(db, message, `wa-booked:${messageId}`, {
    kind: 'text',
    body: confirmationText(message.name, kind, place, booked, () => buyerPayUrl(booked)),
  });
  return 'booked';
}

/** What the confirmation says of a booking (book.ts's answer, its instants as numbers). */
function bookedOf(answer: BookingAnswer) {
  return {
    id: answer.id,
    status: answer.status,
    start: Date.parse(answer.start),
    holdUntil: answer.holdUntil === null ? null : Date.parse(answer.holdUntil),
    priceMxn: answer.priceMxn,
  };
}

/** The booking this choice's key made before (a replay, an earlier run), or null. */
async function bookedBy(db: Queryable, key: string) {
  const answer = await bookedWithKey(db, key);
  return answer && bookedOf(answer);
}

/**
 * Our automatic answer, once per key (outbound.ts). Only inside the window:
 * a choice processed after it closed is booked but not answered here.
 */
async function answer(
  db: Database,
  message: ChoiceRow,
  key: string,
  reply: { kind: 'text'; body: string } | { kind: 'interactive'; list: SlotListMessage },
): Promise<void> {
  if (!message.window_open) {
    logJson('warn', { event: 'whatsapp_slot_answer_window_closed', contact: message.contact_id });
    return;
  }
  await db.transaction((tx) =>
    queueAutomaticAnswer(
      tx,
      message.contact_id,
      key,
      reply.kind === 'text'
        ? reply
        : { kind: 'interactive', body: reply.list.body, interactive: reply.list.interactive },
    ),
  );
}
