import type { Task } from 'graphile-worker';
import { createEvent, type EventAttributes } from 'ics';
import {
  type AppointmentKind,
  type AppointmentPlace,
  appointmentKind,
  appointmentPlace,
} from '../../data/appointments.ts';
import { site } from '../../data/site.ts';
import type { AppointmentStatus } from '../../lib/appointments/booking.ts';
import { formatPhone } from '../../lib/forms/phone.ts';
import { formatPesos } from '../../lib/money.ts';
import { greetingName, nameOrPhone } from '../../lib/person-name.ts';
import { APPOINTMENT_TEMPLATES, type AppointmentTemplateName, templateFor } from '../../lib/whatsapp/templates.ts';
import { HOLDS_TIME, placeMoment } from '../appointments/book.ts';
import { placeTime } from './place-time.ts';

export { placeTime };

import {
  APPOINTMENT_MESSAGE_TASK,
  type AppointmentMessageJob,
  type AppointmentMessageKind,
  type BuyerMessageKind,
  messageJobKey,
} from '../appointments/changes.ts';
import { buyerPayUrl, LINK_LIFETIME_AFTER_START_MS, manageToken, manageUrl } from '../appointments/link.ts';
import { publicSiteUrl, type ServerConfig } from '../config.ts';
import { type Database, type Queryable, withDatabase } from '../db/database.ts';
import type { JobSource } from '../jobs/pool.ts';
import { logJson } from '../log.ts';
import { reasonOf } from '../notifications/channels/channel.ts';
import { type EmailContent, sendEmail } from '../notifications/channels/email.ts';
import { pushTo } from '../notifications/push.ts';
import { isPushServiceEndpoint } from '../notifications/push-endpoint.ts';
import { escapeHtml } from '../notifications/render.ts';
import { queueAutomaticTemplate, REFUSALS } from '../whatsapp/send.ts';

/**
 * The messages about an appointment (issue #40, parts 4 and 5, decision
 * 0060), sent by the queue's jobs that appointmentChanged() (changes.ts)
 * added in the change's transaction. Each job re-reads the appointment and
 * sends only while it still holds the time the job was queued for and has
 * not begun. To the buyer: a WhatsApp template through the conversations'
 * send path (its opt-out, its daily allowance of automatic messages, its
 * retries; the message shows in the conversation) and, when they gave an
 * e-mail, an e-mail with the calendar file (a line of their history, sent or
 * not). To the adviser: an e-mail and a push to each of their devices.
 * What the visitor typed reaches our text only as greetingName() /
 * nameOrPhone() reduce it (decision 0049).
 */

interface AppointmentRow {
  id: string;
  status: AppointmentStatus;
  kind: string;
  place: string;
  contact_id: string;
  starts_at: string;
  ends_at: string;
  hold_until: string | null;
  holds_time: boolean;
  price_mxn: number | null;
  calendar_sequence: number;
  name: string;
  phone: string;
  email: string | null;
  opted_out: boolean;
  member_id: string | null;
  member_email: string | null;
  member_active: boolean;
}

/** An appointment as a message needs it: its row with its kind and place from the data file. */
export interface AppointmentFacts {
  id: string;
  status: AppointmentStatus;
  contactId: string;
  start: number;
  end: number;
  holdUntil: number | null;
  priceMxn: number | null;
  sequence: number;
  kind: AppointmentKind;
  place: AppointmentPlace;
  contact: { name: string; phone: string; email: string | null; optedOut: boolean };
  member: { id: string; email: string } | null;
  /** Whether it holds its time now: confirmed, or an unpaid hold not yet expired. */
  holdsTime: boolean;
}

async function readAppointment(db: Queryable, id: string): Promise<AppointmentFacts | null> {
  const { rows } = await db.query<AppointmentRow>(
    `SELECT a.id, a.status, a.kind, a.place, a.contact_id, a.price_mxn, a.calendar_sequence,
            extract(epoch FROM a.starts_at) * 1000 AS starts_at, extract(epoch FROM a.ends_at) * 1000 AS ends_at,
            extract(epoch FROM a.hold_until) * 1000 AS hold_until,
            ${HOLDS_TIME} AS holds_time,
            c.name, c.phone, a.email, w.opted_out_at IS NOT NULL AS opted_out,
            a.member_id, u.email AS member_email, coalesce(u.deactivated_at IS NULL, false) AS member_active
     FROM appointments a JOIN contacts c ON c.id = a.contact_id
     LEFT JOIN whatsapp_conversations w ON w.contact_id = a.contact_id
     LEFT JOIN users u ON u.id = a.member_id
     WHERE a.id = $1`,
    [id],
  );
  const row = rows[0];
  const kind = row && appointmentKind(row.kind);
  const place = row && appointmentPlace(row.place);
  if (!row || !kind || !place) return null;
  return {
    id: row.id,
    status: row.status,
    contactId: row.contact_id,
    start: Number(row.starts_at),
    end: Number(row.ends_at),
    holdUntil: row.hold_until === null ? null : Number(row.hold_until),
    priceMxn: row.price_mxn,
    sequence: row.calendar_sequence,
    kind,
    place,
    contact: { name: row.name, phone: row.phone, email: row.email, optedOut: row.opted_out },
    member:
      row.member_id && row.member_email && row.member_active ? { id: row.member_id, email: row.member_email } : null,
    holdsTime: row.holds_time,
  };
}

/**
 * Why a job sends nothing now, or null when it sends: a cancellation only
 * while the appointment is cancelled; anything else only while it holds its
 * time at the start the job was queued for (a move queued its own messages).
 * Nothing about an appointment that has begun.
 */
export function staleBecause(job: AppointmentMessageJob, facts: AppointmentFacts | null, now: number): string | null {
  if (!facts) return 'gone';
  if (job.message === 'cancelled') return facts.status === 'cancelada' ? null : 'not cancelled';
  if (!facts.holdsTime) return 'no longer holds its time';
  if (facts.start !== job.start) return 'moved';
  // Handed back to the member it was taken from (another move) before they were told: nothing to tell.
  if (job.memberId !== undefined && facts.member?.id === job.memberId) return 'theirs again';
  if (facts.start <= now) return 'begun';
  return null;
}

/**
 * The buyer's link to reschedule or cancel (link.ts), valid until a day
 * after the start. Inside the kind's cutoff, where that page refuses any
 * change (a 2-hour reminder of a visit whose cutoff is 2 hours, both
 * reminders of a session whose cutoff is 24), the chat with the team
 * instead, with what to say already written: "if you cannot come" must lead
 * somewhere that can act on it.
 */
export function buyerLink(facts: AppointmentFacts, config: ServerConfig, now = Date.now()): string {
  if (now >= facts.start - facts.kind.cutoffHours * 3_600_000) {
    const text = `Hola, tengo una cita «${facts.kind.name}» el ${placeTime(facts.start, facts.place)} y necesito cambiarla o cancelarla.`;
    return `https://wa.me/${site.whatsapp.number}?text=${encodeURIComponent(text)}`;
  }
  return manageUrl(publicSiteUrl(config), manageToken(facts.id, facts.start + LINK_LIFETIME_AFTER_START_MS));
}

/**
 * The moment a message's link is for: a reminder's own (its hours before the
 * start), so the one due exactly at the cutoff (the visit's 2-hour reminder)
 * is inside it whatever the clocks of the worker and the database say; any
 * other message, now.
 */
const linkMoment = (job: AppointmentMessageJob, facts: AppointmentFacts): number =>
  job.message === 'reminder' && job.hoursBefore !== undefined ? facts.start - job.hoursBefore * 3_600_000 : Date.now();

// The payment's notice goes by e-mail and to the adviser only: no template of its own (it would cost a message).
const TEMPLATE_OF: Partial<Record<AppointmentMessageKind, AppointmentTemplateName>> = {
  confirmation: 'cita_confirmada',
  reminder: 'cita_recordatorio',
  moved: 'cita_cambiada',
  cancelled: 'cita_cancelada',
};

/** What each message is called on the contact's history and in the adviser's e-mail. */
const LABEL: Record<AppointmentMessageKind, string> = {
  handedOver: 'Cita pasada a otro asesor',
  confirmation: 'Confirmación de la cita',
  reminder: 'Recordatorio de la cita',
  moved: 'Cambio de la cita',
  cancelled: 'Cancelación de la cita',
  paid: 'Pago de la cita recibido',
};

const label = (job: AppointmentMessageJob) =>
  job.message === 'reminder' ? `${LABEL.reminder} (${job.hoursBefore ?? 0} h antes)` : LABEL[job.message];

/** A line of the contact's history: an e-mail of the appointment sent, or not sent and why. */
async function recordOnHistory(
  db: Queryable,
  facts: AppointmentFacts,
  what: string,
  outcome: 'enviado' | 'no_enviado',
  detail: string,
): Promise<void> {
  await db.query(
    `INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail) VALUES ($1, 'appointment_message', $2, $3, $4)`,
    [facts.contactId, what, outcome, detail.slice(0, 500)],
  );
}

/**
 * The buyer's WhatsApp template, stored as an automated message of ours
 * `sending` with its send job (whatsapp/send.ts sends it: the opt-out is
 * checked again there, and the day's allowance of automatic messages is
 * taken), its line in the history, in one transaction; keyed by the job, so
 * a job run twice stores one message.
 */
async function queueWhatsapp(
  db: Database,
  job: AppointmentMessageJob,
  facts: AppointmentFacts,
  config: ServerConfig,
): Promise<string> {
  if (facts.contact.optedOut) {
    await recordOnHistory(db, facts, `${label(job)} por WhatsApp`, 'no_enviado', REFUSALS.opted_out);
    return 'opted out';
  }
  const approved = APPOINTMENT_TEMPLATES.find((template) => template.name === TEMPLATE_OF[job.message]);
  if (!approved) throw new Error(`no template for ${job.message}`);
  const sent = templateFor(approved, facts.contact, {
    cita: facts.kind.name,
    fecha: placeTime(facts.start, facts.place),
    lugar: facts.place.name,
    enlace: buyerLink(facts, config, linkMoment(job, facts)),
  });
  const queued = await db.transaction((tx) => queueAutomaticTemplate(tx, facts.contactId, sent, messageJobKey(job)));
  return queued ? 'queued' : 'already queued';
}

/** The calendar file (RFC 5545) of the appointment: one UID for its whole life, REQUEST or CANCEL. */
export function calendarFile(facts: AppointmentFacts, link: string | null): string {
  const cancelled = facts.status === 'cancelada';
  const host = new URL(site.siteUrl).hostname;
  const attributes: EventAttributes = {
    productId: `-//${site.brand.name}//Citas//ES`,
    method: cancelled ? 'CANCEL' : 'REQUEST',
    uid: `cita-${facts.id}@${host}`,
    sequence: facts.sequence,
    start: facts.start,
    startInputType: 'utc',
    startOutputType: 'utc',
    end: facts.end,
    endInputType: 'utc',
    endOutputType: 'utc',
    title: `${facts.kind.name} · ${site.brand.name}`,
    description: [
      facts.kind.description,
      facts.place.address,
      ...(link ? [`Para cambiarla o cancelarla: ${link}`] : []),
    ].join('\n\n'),
    location: facts.place.name,
    ...(link && { url: link }),
    status: cancelled ? 'CANCELLED' : facts.status === 'por_pagar' ? 'TENTATIVE' : 'CONFIRMED',
    organizer: { name: site.brand.name, email: site.email },
    ...(facts.contact.email && {
      attendees: [
        {
          // Their first name when it is a name (decision 0049); the address alone otherwise.
          ...(greetingName(facts.contact.name) && { name: greetingName(facts.contact.name) as string }),
          email: facts.contact.email,
          rsvp: false,
          partstat: 'ACCEPTED',
          role: 'REQ-PARTICIPANT',
        },
      ],
    }),
  };
  const { error, value } = createEvent(attributes);
  if (error || !value) throw error ?? new Error('ics gave no calendar file');
  return value;
}

const SUBJECT: Record<BuyerMessageKind, (kind: string, when: string) => string> = {
  confirmation: (kind, when) => `Tu cita quedó agendada: ${kind}, ${when}`,
  moved: (kind, when) => `Tu cita cambió: ${kind}, ahora el ${when}`,
  cancelled: (kind, when) => `Tu cita se canceló: ${kind}, ${when}`,
  reminder: (kind, when) => `Recordatorio: ${kind}, ${when}`,
  paid: (kind, when) => `Pago recibido: ${kind}, ${when}`,
};

const OPENING: Record<BuyerMessageKind, string> = {
  confirmation: 'tu cita quedó agendada.',
  moved: 'tu cita cambió de horario. Estos son los nuevos datos:',
  cancelled: 'tu cita quedó cancelada. Si quieres agendar otra, respóndenos o escríbenos por WhatsApp.',
  reminder: 'te recordamos tu cita.',
  paid: 'recibimos tu pago: tu cita quedó confirmada.',
};

/**
 * The buyer's e-mail: what, when (on the place's clock), where, the link to
 * change it, and the calendar file. `payLink` is where an appointment "por
 * pagar" is paid: the site's own checkout page (/pagar, issue #41) when
 * online payments are on, the site's payment link otherwise.
 */
export function buyerEmail(
  job: AppointmentMessageJob & { message: BuyerMessageKind },
  facts: AppointmentFacts,
  link: string,
  payLink: string = site.paymentLink,
): EmailContent {
  const when = placeMoment(facts.start, facts.place.timeZone);
  const subject = SUBJECT[job.message](facts.kind.name, when);
  const first = greetingName(facts.contact.name);
  const greeting = `Hola${first ? ` ${first}` : ''}, ${OPENING[job.message]}`;
  const rows = [
    { label: 'Cita', value: facts.kind.name },
    { label: 'Cuándo', value: placeTime(facts.start, facts.place) },
    { label: 'Dónde', value: `${facts.place.name}. ${facts.place.address}` },
  ];
  const held =
    facts.status === 'por_pagar' && facts.holdUntil !== null && facts.priceMxn !== null
      ? `Tu horario queda apartado hasta el ${placeMoment(facts.holdUntil, facts.place.timeZone)}: completa el pago de ${formatPesos(facts.priceMxn)} aquí: ${payLink}`
      : null;
  const change = job.message === 'cancelled' ? null : `Para cambiarla o cancelarla: ${link}`;
  const text = [greeting, '', ...rows.map((row) => `${row.label}: ${row.value}`), '', held, change]
    .filter((line) => line !== null)
    .join('\n');
  const table = rows
    .map(
      (row) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top">${escapeHtml(row.label)}</th><td style="padding:4px 0">${escapeHtml(row.value)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5"><p>${escapeHtml(greeting)}</p><table style="border-collapse:collapse">${table}</table>${
    held ? `<p>${escapeHtml(held)}</p>` : ''
  }${
    change
      ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 14px;background:#14532d;color:#ffffff;border-radius:6px;text-decoration:none">Cambiar o cancelar mi cita</a></p><p style="font-size:12px">${escapeHtml(change)}</p>`
      : ''
  }<p style="color:#6b7280;font-size:12px">${escapeHtml(site.brand.name)} · ${escapeHtml(site.siteUrl)}</p></body></html>`;
  const withFile = job.message !== 'reminder';
  const method = facts.status === 'cancelada' ? 'CANCEL' : 'REQUEST';
  return {
    subject,
    text,
    html,
    messageId: `<${messageJobKey(job).replaceAll(':', '.')}@citas.${new URL(site.siteUrl).hostname}>`,
    to: facts.contact.email ? [facts.contact.email] : [],
    ...(withFile && {
      attachments: [
        {
          filename: 'cita.ics',
          content: calendarFile(facts, job.message === 'cancelled' ? null : link),
          contentType: `text/calendar; charset=utf-8; method=${method}`,
        },
      ],
    }),
  };
}

const ADVISER_TITLE: Record<AppointmentMessageKind, (kind: string, who: string, hours: number) => string> = {
  confirmation: (kind, who) => `Nueva cita: ${kind} con ${who}`,
  moved: (kind, who) => `Cita cambiada: ${kind} con ${who}`,
  cancelled: (kind, who) => `Cita cancelada: ${kind} con ${who}`,
  reminder: (kind, who, hours) => `En ${hours === 1 ? '1 hora' : `${hours} horas`}: ${kind} con ${who}`,
  paid: (kind, who) => `Cita pagada: ${kind} con ${who}`,
  handedOver: (kind, who) => `Ya no es tuya: ${kind} con ${who} pasó a otro asesor`,
};

/** What the adviser is told: a title, the moment and the place, and their page of the contact. */
export function adviserNotice(job: AppointmentMessageJob, facts: AppointmentFacts, siteUrl: string) {
  const who = nameOrPhone(facts.contact.name, facts.contact.phone);
  const when = placeMoment(facts.start, facts.place.timeZone);
  return {
    title: ADVISER_TITLE[job.message](facts.kind.name, who, job.hoursBefore ?? 0),
    when,
    rows: [
      { label: 'Cuándo', value: placeTime(facts.start, facts.place) },
      { label: 'Dónde', value: facts.place.name },
      { label: 'Teléfono', value: formatPhone(facts.contact.phone) },
      ...(facts.status === 'por_pagar' ? [{ label: 'Estado', value: 'Apartada, por pagar' }] : []),
    ],
    url: `${siteUrl}/admin/prospecto?id=${facts.contactId}`,
  };
}

function adviserEmail(
  job: AppointmentMessageJob,
  facts: AppointmentFacts,
  to: string[],
  siteUrl: string,
): EmailContent {
  const notice = adviserNotice(job, facts, siteUrl);
  const table = notice.rows
    .map(
      (row) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0">${escapeHtml(row.label)}</th><td>${escapeHtml(row.value)}</td></tr>`,
    )
    .join('');
  return {
    subject: `${notice.title} · ${site.brand.name}`,
    text: [
      notice.title,
      '',
      ...notice.rows.map((row) => `${row.label}: ${row.value}`),
      '',
      `Ver en el panel: ${notice.url}`,
    ].join('\n'),
    html: `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(notice.title)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5"><h1 style="font-size:20px">${escapeHtml(notice.title)}</h1><table style="border-collapse:collapse">${table}</table><p><a href="${escapeHtml(notice.url)}">Ver en el panel</a></p><p style="color:#6b7280;font-size:12px">${escapeHtml(site.brand.name)} · aviso automático del sitio</p></body></html>`,
    messageId: `<${messageJobKey(job).replaceAll(':', '.')}@notificaciones.${new URL(site.siteUrl).hostname}>`,
    to,
  };
}

async function pushToAdviser(
  db: Database,
  job: AppointmentMessageJob,
  facts: AppointmentFacts,
  members: { id: string }[],
  config: ServerConfig,
): Promise<string> {
  const push = config.push;
  if (!push) return 'push off';
  const notice = adviserNotice(job, facts, '');
  const devices = await db.query<{ id: string; endpoint: string; p256dh: string; auth: string }>(
    'SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ANY($1::uuid[])',
    [members.map((member) => member.id)],
  );
  let sent = 0;
  let failed = 0;
  for (const device of devices.rows) {
    if (!isPushServiceEndpoint(device.endpoint, push.testService)) continue;
    try {
      const outcome = await pushTo(db, push, device.id, device, {
        title: notice.title,
        body: `${notice.when} · ${facts.place.name}`,
        url: notice.url,
        tag: `cita-${facts.id}`,
      });
      if (outcome !== 'gone') sent += 1;
    } catch {
      // Logged by pushTo.
      failed += 1;
    }
  }
  // The adviser is told once one device has it: a device that failed beside one that did is not worth
  // sending the others again. None reached (a push service down): the queue tries the job again.
  if (sent === 0 && failed > 0) throw new Error(`push failed on ${failed} device(s)`);
  return `${sent} push`;
}

/**
 * The queue's job for one message (payload: AppointmentMessageJob). An
 * e-mail that the SMTP server refuses or cannot take is thrown, so the queue
 * tries again; on the last try the buyer's history says it was not sent.
 */
export async function runAppointmentMessage(
  db: Database,
  job: AppointmentMessageJob,
  config: ServerConfig,
  attempt: { attempts: number; maxAttempts: number } = { attempts: 1, maxAttempts: 1 },
): Promise<string> {
  const facts = await readAppointment(db, job.appointmentId);
  const stale = staleBecause(job, facts, Date.now());
  if (stale || !facts) return `stale: ${stale}`;
  const email = config.notifications.email;
  if (job.to === 'buyer') {
    if (job.message === 'handedOver') return 'not for the buyer';
    const buyerJob = { ...job, message: job.message };
    if (job.channel === 'whatsapp') return config.whatsapp ? queueWhatsapp(db, job, facts, config) : 'whatsapp off';
    if (job.channel !== 'email' || !email || !facts.contact.email) return 'no e-mail';
    const what = `${label(job)} por correo`;
    try {
      const receipt = await sendEmail(
        email,
        buyerEmail(buyerJob, facts, buyerLink(facts, config, linkMoment(job, facts)), buyerPayUrl(facts, config)),
        [facts.contact.email],
      );
      await recordOnHistory(db, facts, what, 'enviado', facts.contact.email);
      return receipt;
    } catch (error) {
      if (attempt.attempts >= attempt.maxAttempts) {
        await recordOnHistory(db, facts, what, 'no_enviado', reasonOf(error));
      }
      throw error;
    }
  }
  const members = await adviserRecipients(db, job, facts);
  if (members.length === 0) return 'no adviser';
  if (job.channel === 'push') return pushToAdviser(db, job, facts, members, config);
  if (job.channel !== 'email' || !email) return 'no e-mail';
  const to = members.map((member) => member.email);
  return sendEmail(email, adviserEmail(job, facts, to, publicSiteUrl(config)), to);
}

/**
 * Who an adviser's notice goes to: the appointment's adviser while on the
 * team; when they are gone (deactivated with visits still ahead) or it has
 * none, every active administrator, as a contact's reminder does, so a visit
 * is never left with nobody told. A hand-over's notice goes to the member it
 * was taken from, or nobody once they are gone.
 */
async function adviserRecipients(
  db: Queryable,
  job: AppointmentMessageJob,
  facts: AppointmentFacts,
): Promise<{ id: string; email: string }[]> {
  if (job.memberId === undefined && facts.member) return [facts.member];
  const { rows } = await db.query<{ id: string; email: string }>(
    job.memberId === undefined
      ? `SELECT u.id, u.email FROM users u JOIN user_roles r ON r.user_id = u.id
         WHERE r.role = 'admin' AND u.deactivated_at IS NULL ORDER BY u.email`
      : 'SELECT id, email FROM users WHERE id = $1 AND deactivated_at IS NULL',
    job.memberId === undefined ? [] : [job.memberId],
  );
  return rows;
}

/**
 * What the appointments hand the job runner (src/server/tasks.ts): a lane of
 * their own while anything can carry their messages (e-mail, WhatsApp, Web
 * Push), so a slow SMTP server never holds up a lead's notification.
 */
export const appointmentJobs: JobSource = {
  lanes(config) {
    if (config.notifications.email === null && config.whatsapp === null && config.push === null) return [];
    const task: Task = async (payload, helpers) => {
      const job = payload as AppointmentMessageJob;
      const outcome = await withDatabase(
        (db) =>
          runAppointmentMessage(db, job, config, {
            attempts: helpers.job.attempts,
            maxAttempts: helpers.job.max_attempts,
          }),
        config,
      );
      logJson('info', { event: 'appointment_message', key: messageJobKey(job), outcome });
    };
    return [{ channel: 'appointments', tasks: { [APPOINTMENT_MESSAGE_TASK]: task } }];
  },
};
