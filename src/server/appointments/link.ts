import { createHmac, timingSafeEqual } from 'node:crypto';
import { site } from '../../data/site.ts';
import { sessionSecret } from '../auth/secret.ts';
import { getConfig, publicSiteUrl, type ServerConfig } from '../config.ts';

/**
 * The buyer's link to reschedule or cancel an appointment (issue #40,
 * decision 0059): `/cita?t=<token>`, where the token names one appointment,
 * says until when it may be used and is signed with HMAC-SHA256 under a key
 * of its own (derived from the session secret with this purpose's label, so
 * a session token can never pass for a link nor a link for a session). Short
 * on purpose: it travels inside a WhatsApp message and an e-mail.
 *
 * Layout, base64url: 16 bytes of the appointment's uuid, 4 bytes of the
 * expiry (Unix seconds, big-endian), 16 bytes of the MAC over the first 20.
 * The payment's link (/pagar?t=<token>, issue #41) has the same layout under
 * a key of its own purpose: a link to pay cannot move or cancel, nor the
 * other way round.
 */

type Purpose = 'appointment-manage-v1' | 'appointment-pay-v1';
const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const keys = new Map<Purpose, Buffer>();
function linkKey(purpose: Purpose): Buffer {
  let key = keys.get(purpose);
  if (!key) {
    key = createHmac('sha256', sessionSecret()).update(purpose).digest();
    keys.set(purpose, key);
  }
  return key;
}

function mac(purpose: Purpose, body: Buffer): Buffer {
  return createHmac('sha256', linkKey(purpose)).update(body).digest().subarray(0, MAC_BYTES);
}

function signedToken(purpose: Purpose, appointmentId: string, expiresAt: number): string {
  if (!UUID.test(appointmentId)) throw new Error('an appointment id is a uuid');
  const body = Buffer.alloc(20);
  Buffer.from(appointmentId.replaceAll('-', ''), 'hex').copy(body, 0);
  body.writeUInt32BE(Math.ceil(expiresAt / 1000), 16);
  return Buffer.concat([body, mac(purpose, body)]).toString('base64url');
}

/** A token for `appointmentId`, good until `expiresAt` (milliseconds). */
export function manageToken(appointmentId: string, expiresAt: number): string {
  return signedToken('appointment-manage-v1', appointmentId, expiresAt);
}

/** A token of the payment's page for `appointmentId`, good until `expiresAt` (milliseconds). */
export function payToken(appointmentId: string, expiresAt: number): string {
  return signedToken('appointment-pay-v1', appointmentId, expiresAt);
}

export type ManageTokenReading = { ok: true; appointmentId: string } | { ok: false; reason: 'invalid' | 'expired' };

/** What `token` says, checked: its appointment, or why it cannot be used at `now`. */
export function readManageToken(token: string, now: number): ManageTokenReading {
  return readToken('appointment-manage-v1', token, now);
}

/** What a payment page's `token` says, checked. */
export function readPayToken(token: string, now: number): ManageTokenReading {
  return readToken('appointment-pay-v1', token, now);
}

function readToken(purpose: Purpose, token: string, now: number): ManageTokenReading {
  if (!/^[A-Za-z0-9_-]{48}$/.test(token)) return { ok: false, reason: 'invalid' };
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== 20 + MAC_BYTES) return { ok: false, reason: 'invalid' };
  const body = raw.subarray(0, 20);
  if (!timingSafeEqual(raw.subarray(20), mac(purpose, body))) return { ok: false, reason: 'invalid' };
  if (body.readUInt32BE(16) * 1000 <= now) return { ok: false, reason: 'expired' };
  const hex = body.subarray(0, 16).toString('hex');
  const appointmentId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { ok: true, appointmentId };
}

/** How long after its start an appointment's link still opens (to read what happened). */
export const LINK_LIFETIME_AFTER_START_MS = 24 * 3_600_000;

/** The page of the site that opens the link. */
export function manageUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/$/, '')}/cita?t=${token}`;
}

/** The page of the site where the buyer pays an appointment "por pagar" (and comes back to). */
export function payUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/$/, '')}/pagar?t=${token}`;
}

/**
 * Where an appointment still "por pagar" is paid, as a path of the site
 * (/pagar with its own link, good until a day after its start), when online
 * payments are on; null otherwise. The booking's answer and the
 * appointment's own page offer it (issue #41).
 */
export function payPage(appointment: { id: string; status: string; start: number }): string | null {
  if (appointment.status !== 'por_pagar' || !getConfig().payments) return null;
  return payUrl('', payToken(appointment.id, appointment.start + LINK_LIFETIME_AFTER_START_MS));
}

/**
 * Where the buyer pays an appointment "por pagar", as a whole address for a message (the e-mail, the
 * WhatsApp confirmation): its /pagar page when online payments are on, the site's payment link otherwise.
 */
export function buyerPayUrl(appointment: { id: string; start: number }, config: ServerConfig = getConfig()): string {
  if (!config.payments) return site.paymentLink;
  return payUrl(publicSiteUrl(config), payToken(appointment.id, appointment.start + LINK_LIFETIME_AFTER_START_MS));
}
