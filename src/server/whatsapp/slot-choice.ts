import { createHmac, timingSafeEqual } from 'node:crypto';
import { sessionSecret } from '../auth/secret.ts';

/**
 * The id of a row of the free slots' list (decision 0063): what the buyer's
 * `list_reply` gives back, so the only part of their answer we act on. It
 * names a kind, a place and a start, and carries an HMAC-SHA256 over them
 * and the contact the list was sent to, under a key of its own (derived
 * from the session secret with this purpose's label, as the manage link's).
 * A row id copied into another conversation, edited, or made up does not
 * verify, and books nothing; the person booked is always the one whose
 * number wrote, never anything the id says.
 *
 * Layout: `cita:<kind>:<place>:<start in minutes since the epoch, base 36>:<MAC>`,
 * the MAC 16 bytes in base64url (22 characters); at most 160 characters
 * (the platform allows 200).
 */

export const SLOT_CHOICE_PREFIX = 'cita:';

const PURPOSE = 'whatsapp-slot-choice-v1';
const ID = /^[a-z0-9][a-z0-9-]{0,59}$/;
const ROW = /^cita:([a-z0-9][a-z0-9-]{0,59}):([a-z0-9][a-z0-9-]{0,59}):([0-9a-z]{1,10}):([A-Za-z0-9_-]{22})$/;

let key: Buffer | undefined;
function choiceKey(): Buffer {
  key ??= createHmac('sha256', sessionSecret()).update(PURPOSE).digest();
  return key;
}

function mac(contactId: string, kind: string, place: string, minutes: string): Buffer {
  return createHmac('sha256', choiceKey()).update(`${contactId}|${kind}|${place}|${minutes}`).digest().subarray(0, 16);
}

export interface SlotChoice {
  kind: string;
  place: string;
  /** Milliseconds since the epoch. */
  start: number;
}

/** The row id of `choice` in a list sent to `contactId`. */
export function slotRowId(contactId: string, choice: SlotChoice): string {
  if (!ID.test(choice.kind) || !ID.test(choice.place)) throw new Error('a kind or a place id is a slug');
  if (choice.start % 60_000 !== 0) throw new Error('a slot starts on a whole minute');
  const minutes = (choice.start / 60_000).toString(36);
  return `${SLOT_CHOICE_PREFIX}${choice.kind}:${choice.place}:${minutes}:${mac(contactId, choice.kind, choice.place, minutes).toString('base64url')}`;
}

/** The choice a row id names, when it was signed for `contactId`; null for anything else. */
export function readSlotRowId(contactId: string, rowId: string): SlotChoice | null {
  const match = ROW.exec(rowId);
  if (!match) return null;
  const [, kind, place, minutes, sent] = match as unknown as [string, string, string, string, string];
  const given = Buffer.from(sent, 'base64url');
  if (given.length !== 16 || !timingSafeEqual(given, mac(contactId, kind, place, minutes))) return null;
  const start = Number.parseInt(minutes, 36) * 60_000;
  return Number.isSafeInteger(start) ? { kind, place, start } : null;
}

/** The row id a stored `list_reply` carries (the message's raw JSON), if any. */
export function listReplyId(raw: unknown): string | null {
  const interactive = (raw as { interactive?: { type?: unknown; list_reply?: { id?: unknown } } } | null)?.interactive;
  const id = interactive?.list_reply?.id;
  return interactive?.type === 'list_reply' && typeof id === 'string' ? id : null;
}
