import type { z } from 'zod';
import {
  type AppointmentKind,
  type AppointmentPlace,
  appointmentKind,
  appointmentPlace,
} from '../../data/appointments.ts';
import { formatMxn } from '../../data/catalogue.ts';
import type { BookingAnswer } from '../../lib/appointments/booking.ts';
import { clockName } from '../../lib/appointments/clock.ts';
import { normalizePhone } from '../../lib/forms/phone.ts';
import { greetingName } from '../../lib/person-name.ts';
import { findTemplate, templateFor } from '../../lib/whatsapp/templates.ts';
import { availableSlots } from '../appointments/availability.ts';
import {
  AlreadyHeld,
  BookingKeyReused,
  bookAppointment,
  bookedWithKey,
  SlotTaken,
  TooManyAppointments,
} from '../appointments/book.ts';
import { instantOfWall, wallTime } from '../appointments/panel.ts';
import { clockFormat, clockParts } from '../clock-formats.ts';
import { getConfig, publicSiteUrl } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { queueAutomaticTemplate } from '../whatsapp/send.ts';
import { attachCall, moveCall } from './call-store.ts';
import { MODELS, type Model } from './catalogue.ts';
import type { CallInfo } from './report.ts';
import { isVoiceTool, VOICE_TOOLS, type VoiceToolArgs, type VoiceToolName } from './tool-args.ts';
import { touchContact } from './touch.ts';

/**
 * What the voice agent's tools do during a call (issue #42, decision 0071).
 * Each answers one short Spanish sentence the agent reads aloud (what is
 * between brackets is for the agent only: the prompt says so). Each effect
 * is idempotent by its own key: the lead by the call (one call, one lead),
 * the booking by the call and what it books, the WhatsApp by the call; the endpoint
 * keeps each toolCallId's answer (call-events.ts), so a replay is answered
 * the same without running again.
 */

export interface ToolOutcome {
  result: string;
  /** Lead notifications queued (their jobs are the caller's to hurry). */
  deliveries: string[];
}

/** How many free slots one answer offers (a list read aloud must stay short). */
const SLOTS_OFFERED = 4;
/** The days searched for free slots from the asked day. */
const SEARCH_DAYS = 14;
const DAY = 86_400_000;

const said = (text: string): ToolOutcome => ({ result: text, deliveries: [] });

/**
 * Appointments one call may book. Each sends WhatsApp templates to the phone
 * it names, which nobody proved is the caller's (a booking "para mi primo"):
 * with the cap per phone (book.ts MAX_UPCOMING_UNVERIFIED), this keeps one
 * call from filling the calendar and the day's allowance of messages.
 */
export const MAX_BOOKINGS_PER_CALL = 2;

/** "Lumo, 22 m² para 2 personas, desde $349,000 MXN, entrega de 4 a 6 semanas [lumo]" */
function modelLine(model: Model): string {
  const [from, to, unit] = model.delivery.split(/[- ]/);
  return `${model.name}, ${Math.round(model.sizeM2)} m² para ${model.capacity} personas, desde ${formatMxn(model.priceFromMxn)}, entrega de ${from} a ${to} ${unit} [${model.id}]`;
}

export function findModels(args: VoiceToolArgs<'buscar_modelos'>): string {
  const fits = MODELS.filter(
    (model) =>
      (args.presupuesto_mxn === undefined || model.priceFromMxn <= args.presupuesto_mxn) &&
      (args.personas === undefined || model.capacity >= args.personas) &&
      (args.niveles === undefined || model.levels === args.niveles),
  ).slice(0, 3);
  const land =
    args.tiene_terreno === false
      ? ' Si todavía no tienes terreno, un asesor te orienta para elegirlo sin compromiso.'
      : '';
  if (fits.length === 0) {
    const cheapest = [...MODELS].sort((a, b) => a.priceFromMxn - b.priceFromMxn)[0];
    return (
      'Ningún modelo base encaja del todo con eso.' +
      (cheapest ? ` El más accesible es ${modelLine(cheapest)}.` : '') +
      ' Un asesor puede proponerte opciones a tu medida.' +
      land
    );
  }
  const lines = fits.map(modelLine);
  return (
    `${fits.length === 1 ? 'Encaja este modelo' : `Encajan estos ${fits.length} modelos`}: ${lines.join('; ')}.` +
    ' Los precios son «desde»: el asesor arma tu cotización final.' +
    land
  );
}

/** The place of a kind the agent asked for: the one named, or the kind's first. */
function placeOf(kind: AppointmentKind, placeId: string | undefined): AppointmentPlace | string {
  const id = placeId ?? kind.places[0];
  const place = id ? appointmentPlace(id) : undefined;
  if (!place || !kind.places.includes(place.id)) {
    const names = kind.places.map((known) => appointmentPlace(known)?.name ?? known);
    return `La ${kind.name.toLowerCase()} no se da en ese lugar; se da en: ${names.join(', ')} [${kind.places.join(', ')}].`;
  }
  return place;
}

const SPOKEN: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** "lunes 7 de diciembre a las 10:00", on `timeZone`'s clock: a moment as the agent says it. */
export function spokenMoment(instant: number, timeZone: string): string {
  const parts = clockParts(clockFormat('spoken', 'es-MX', timeZone, SPOKEN), instant);
  return `${parts.weekday} ${parts.day} de ${parts.month} a las ${parts.hour}:${parts.minute}`;
}

/** "lunes 7 de diciembre a las 10:00 [2026-12-07 10:00]": the agent says the first part and books with the second. */
function slotWords(start: number, place: AppointmentPlace): string {
  return `${spokenMoment(start, place.timeZone)} [${wallTime(start, place.timeZone).replace('T', ' ')}]`;
}

async function freeSlots(db: Queryable, kind: AppointmentKind, place: AppointmentPlace, from: number, now: number) {
  const slots = await availableSlots(db, kind, place, from, from + SEARCH_DAYS * DAY, now);
  // A spread to choose from: at most two a day.
  const perDay = new Map<string, number>();
  return slots
    .filter((slot) => {
      const day = wallTime(slot.start, place.timeZone).slice(0, 10);
      const count = perDay.get(day) ?? 0;
      perDay.set(day, count + 1);
      return count < 2;
    })
    .slice(0, SLOTS_OFFERED);
}

export async function offerSlots(
  db: Queryable,
  args: VoiceToolArgs<'horarios_disponibles'>,
  now: number,
  opening = '',
): Promise<string> {
  const kind = appointmentKind(args.tipo);
  if (!kind) return 'Ese tipo de cita ya no existe.';
  const place = placeOf(kind, args.lugar);
  if (typeof place === 'string') return place;
  const asked = args.desde ? instantOfWall(`${args.desde}T00:00`, place.timeZone) : null;
  const slots = await freeSlots(db, kind, place, Math.max(asked ?? now, now), now);
  if (slots.length === 0) {
    return `${opening}No hay horarios libres para ${kind.name} en ${place.name} en las próximas dos semanas desde esa fecha. Puedo buscar desde otro día, o un asesor te escribe para acordarla.`;
  }
  const price =
    kind.priceMxn === null
      ? ''
      : ` Cuesta ${formatMxn(kind.priceMxn)} y se paga en línea con el enlace que te llega al agendar.`;
  return `${opening}Horarios libres para ${kind.name} en ${place.name}, hora de ${clockName(place.timeZone)}: ${slots
    .map((slot) => slotWords(slot.start, place))
    .join('; ')}.${price}`;
}

interface CallPerson {
  name: string | null;
  phone: string | null;
  email: string | null;
  contact_id: string | null;
}

async function personOfCall(db: Queryable, callId: string): Promise<CallPerson | null> {
  const { rows } = await db.query<CallPerson>(
    'SELECT name, phone, email, contact_id FROM voice_calls WHERE call_id = $1',
    [callId],
  );
  return rows[0] ?? null;
}

/**
 * What the agent says when a number's own state stops a tool (appointments
 * ahead, one at that hour, no WhatsApp wanted, the models sent today): the
 * same words whatever the reason. A number said on a call is nobody's proof,
 * and a caller giving someone else's must not learn what that person has
 * with us.
 */
const NOT_BY_PHONE =
  'Por aquí no puedo agendar esa cita. Un asesor te escribirá por WhatsApp para ayudarte a agendarla o cambiar la que tengas.';
const NO_WHATSAPP_NOW = 'Por ahora no puedo enviarte los modelos desde la llamada; un asesor te dará seguimiento.';
const SENT_HERE = 'Ya te enviamos los modelos por WhatsApp en esta llamada.';

const PHONE_AGAIN = 'Ese número no parece válido. ¿Me lo repites con los 10 dígitos de tu WhatsApp?';

async function saveProspect(db: Database, call: CallInfo, args: VoiceToolArgs<'guardar_prospecto'>) {
  const phone = normalizePhone(args.telefono);
  if (!phone) return said(PHONE_AGAIN);
  const attribution = { ...call.metadata };
  const deliveries = await db.transaction(async (tx) => {
    const contactId = await touchContact(tx, {
      phone,
      name: args.nombre,
      email: args.correo?.toLowerCase() ?? null,
      municipality: null,
      kind: 'comprador',
      row: attribution,
    });
    const person = {
      name: args.nombre,
      phone,
      email: args.correo?.toLowerCase() ?? null,
      interest: args.interes || null,
    };
    // Stored before with another number (misheard, corrected): the call follows the number they gave last.
    const moved = await moveCall(tx, call.callId, contactId, person);
    return moved.length > 0 ? moved : attachCall(tx, call.callId, contactId, person);
  });
  const greeting = greetingName(args.nombre);
  return {
    result: `Listo${greeting ? `, ${greeting}` : ''}: ya tengo tus datos. Un asesor te escribirá por WhatsApp para darte seguimiento.`,
    deliveries,
  };
}

async function book(db: Database, call: CallInfo, args: VoiceToolArgs<'agendar_visita'>, now: number) {
  const kind = appointmentKind(args.tipo);
  if (!kind) return said('Ese tipo de cita ya no existe.');
  const place = placeOf(kind, args.lugar);
  if (typeof place === 'string') return said(place);
  const known = await personOfCall(db, call.callId);
  const name = args.nombre ?? known?.name ?? null;
  const rawPhone = args.telefono ?? known?.phone ?? call.customerNumber;
  if (!name || !rawPhone) return said('Antes de agendar necesito tu nombre y tu número de WhatsApp.');
  const phone = normalizePhone(rawPhone);
  if (!phone) return said(PHONE_AGAIN);
  const start = instantOfWall(`${args.fecha}T${args.hora}`, place.timeZone);
  if (start === null) return said('Esa fecha u hora no existe. ¿Me la repites?');
  const email = args.correo?.toLowerCase() ?? known?.email ?? undefined;
  // The call's own bookings, each keyed by what it books (`voz:{call}:{kind}:{place}:{start}`): the same tool call
  // again is its replay, and so is the agent asking again for the same time under another tool call (a retry
  // after a timeout booked a second adviser at the same hour).
  const key = `voz:${call.callId}:${kind.id}:${place.id}:${new Date(start).toISOString()}`;
  const { rows: earlier } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM appointments WHERE starts_with(idempotency_key, $1) AND idempotency_key <> $2`,
    [`voz:${call.callId}:`, key],
  );
  if ((earlier[0]?.count ?? 0) >= MAX_BOOKINGS_PER_CALL) {
    return said(
      `En esta llamada ya agendé ${MAX_BOOKINGS_PER_CALL} citas, así que no puedo agendar otra por aquí. Si necesitas otra, escríbenos por WhatsApp y un asesor te ayuda.`,
    );
  }
  let deliveries: string[] = [];
  let answer: BookingAnswer;
  try {
    answer = await bookAppointment(db, {
      booking: {
        name,
        phone,
        email,
        kind: kind.id,
        place: place.id,
        start: new Date(start).toISOString(),
      } as Parameters<typeof bookAppointment>[1]['booking'],
      source: 'voz',
      idempotencyKey: key,
      now,
      async alsoRecord(tx, booked) {
        const { rows } = await tx.query<{ contact_id: string }>('SELECT contact_id FROM appointments WHERE id = $1', [
          booked.id,
        ]);
        const contact = rows[0]?.contact_id;
        if (contact) deliveries = await attachCall(tx, call.callId, contact, { name, phone, email: email ?? null });
      },
    });
  } catch (error) {
    if (error instanceof TooManyAppointments || error instanceof AlreadyHeld) return said(NOT_BY_PHONE);
    // The agent asked again for the same time with the name spelled otherwise: that booking stands, it is theirs.
    const same = error instanceof BookingKeyReused ? await bookedWithKey(db, key) : null;
    if (same) answer = same;
    else if (error instanceof SlotTaken || error instanceof BookingKeyReused) {
      return said(
        await offerSlots(
          db,
          { tipo: kind.id, lugar: place.id, desde: args.fecha },
          now,
          'Ese horario ya no está libre. ',
        ),
      );
    } else throw error;
  }
  const greeting = greetingName(name);
  const when = `${spokenMoment(Date.parse(answer.start), place.timeZone)}, hora de ${clockName(place.timeZone)}`;
  const whatsapp = getConfig().whatsapp !== null;
  const told = whatsapp ? 'Te llega la confirmación por WhatsApp' : 'Un asesor te confirma por WhatsApp';
  const paid =
    answer.status === 'por_pagar' && answer.holdUntil && kind.priceMxn !== null
      ? ` Queda apartada mientras pagas ${formatMxn(kind.priceMxn)} con el enlace que te enviamos, hasta el ${spokenMoment(Date.parse(answer.holdUntil), place.timeZone)}.`
      : '';
  return {
    result: `Listo${greeting ? `, ${greeting}` : ''}: quedó agendada tu ${kind.name.toLowerCase()} el ${when}, en ${place.name}. ${told}, con el enlace para cambiarla o cancelarla.${paid}`,
    deliveries,
  };
}

const VOICE_TEMPLATE = 'modelos_de_llamada';

async function sendModels(db: Database, call: CallInfo, args: VoiceToolArgs<'enviar_whatsapp'>) {
  const config = getConfig();
  if (!config.whatsapp)
    return said('Por ahora no puedo enviarte WhatsApp desde la llamada; un asesor te escribirá con los modelos.');
  const person = await personOfCall(db, call.callId);
  if (!person?.contact_id) return said('Antes de enviarte los modelos necesito tu nombre y tu número de WhatsApp.');
  const contactId = person.contact_id;
  const chosen = args.modelos.flatMap((id) => MODELS.filter((model) => model.id === id));
  const modelos = [...new Set(chosen)]
    .map((model) => `${model.name} (desde ${formatMxn(model.priceFromMxn)})`)
    .join(', ');
  const approved = findTemplate(VOICE_TEMPLATE);
  if (!approved) throw new Error(`no template ${VOICE_TEMPLATE}`);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      name: string;
      opted_out_at: Date | null;
      sent_here: boolean;
      sent_today: boolean;
    }>(
      `SELECT c.name, w.opted_out_at,
              EXISTS (SELECT 1 FROM whatsapp_messages m WHERE m.idempotency_key = $2) AS sent_here,
              EXISTS (SELECT 1 FROM whatsapp_messages m WHERE m.contact_id = c.id AND m.idempotency_key LIKE 'voz-modelos:%'
                        AND m.created_at > now() - interval '24 hours') AS sent_today
       FROM contacts c LEFT JOIN whatsapp_conversations w ON w.contact_id = c.id WHERE c.id = $1 FOR UPDATE OF c`,
      [contactId, `voz-modelos:${call.callId}`],
    );
    const contact = rows[0];
    if (!contact) return said('Antes de enviarte los modelos necesito tu nombre y tu número de WhatsApp.');
    if (contact.sent_here) return said(SENT_HERE);
    // Once per call and per number a day: a caller cannot make our number write to anyone again and again. Nor
    // learn that the number asked for no messages, or got them today (NO_WHATSAPP_NOW).
    if (contact.opted_out_at || contact.sent_today) return said(NO_WHATSAPP_NOW);
    const sent = templateFor(approved, contact, { modelos, enlace: `${publicSiteUrl(config)}/modelos` });
    if (!(await queueAutomaticTemplate(tx, contactId, sent, `voz-modelos:${call.callId}`))) return said(SENT_HERE);
    return said(
      `Listo: te envié por WhatsApp ${chosen.length === 1 ? 'el modelo' : 'los modelos'}, con el enlace para verlos con fotos.`,
    );
  });
}

/** What the agent hears when its arguments do not fit: the first problem, so it can ask again. */
function argumentsProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return `No pude hacerlo: ${issue?.message ?? 'faltan datos'} [${issue?.path.join('.') ?? ''}]`;
}

/**
 * The arguments with those left blank taken as not given, as the forms take
 * an empty field: a language model often sends `""` or `null` for an
 * optional argument (`correo: ""`), which refused the whole lead.
 */
function withoutBlanks(args: unknown): unknown {
  if (args === null || args === undefined) return {};
  if (typeof args !== 'object' || Array.isArray(args)) return args;
  return Object.fromEntries(
    Object.entries(args).filter(([, value]) => value !== null && !(typeof value === 'string' && value.trim() === '')),
  );
}

/** Runs one tool call; an unknown tool or arguments that do not fit are answered in words, never thrown. */
export async function runTool(
  db: Database,
  call: CallInfo,
  toolCall: { id: string; name: string; arguments: unknown },
  now: number,
): Promise<ToolOutcome> {
  if (!isVoiceTool(toolCall.name)) return said(`No conozco la herramienta ${toolCall.name.slice(0, 64)}.`);
  const name: VoiceToolName = toolCall.name;
  const parsed = VOICE_TOOLS[name].parameters.safeParse(withoutBlanks(toolCall.arguments));
  if (!parsed.success) return said(argumentsProblem(parsed.error));
  switch (name) {
    case 'buscar_modelos':
      return said(findModels(parsed.data as VoiceToolArgs<'buscar_modelos'>));
    case 'horarios_disponibles':
      return said(await offerSlots(db, parsed.data as VoiceToolArgs<'horarios_disponibles'>, now));
    case 'agendar_visita':
      return book(db, call, parsed.data as VoiceToolArgs<'agendar_visita'>, now);
    case 'guardar_prospecto':
      return saveProspect(db, call, parsed.data as VoiceToolArgs<'guardar_prospecto'>);
    case 'enviar_whatsapp':
      return sendModels(db, call, parsed.data as VoiceToolArgs<'enviar_whatsapp'>);
  }
}
