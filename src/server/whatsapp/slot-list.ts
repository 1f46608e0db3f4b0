import {
  APPOINTMENTS,
  type AppointmentKind,
  type AppointmentPlace,
  appointmentKind,
  appointmentPlace,
} from '../../data/appointments.ts';
import { clockName } from '../../lib/appointments/clock.ts';
import type { InteractiveList, SlotOption } from '../../lib/whatsapp/contract.ts';
import { availableSlots } from '../appointments/availability.ts';
import type { Queryable } from '../db/database.ts';
import { slotRowId } from './slot-choice.ts';

/**
 * The free slots as a WhatsApp interactive list message (decision 0063),
 * within the Cloud API's limits: body 1,024 characters, footer 60, button
 * 20, up to 10 sections with up to 10 rows among them all, a section's and
 * a row's title 24, a row's description 72, a row's id 200. Pure: the
 * slots come computed (availability.ts), the times on the place's clock.
 */

export const LIST_LIMITS = {
  body: 1024,
  footer: 60,
  button: 20,
  rows: 10,
  sectionTitle: 24,
  rowTitle: 24,
  rowDescription: 72,
  rowId: 200,
} as const;

/** At most this many slots of one day, this far apart: the list spans several days. */
const PER_DAY = 3;
const SPACING_MS = 2 * 3_600_000;

export const LIST_BUTTON = 'Ver horarios';

function parts(instant: number, timeZone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const found: Record<string, string> = {};
  for (const part of new Intl.DateTimeFormat('es-MX', { timeZone, ...options }).formatToParts(instant)) {
    found[part.type] = part.value;
  }
  return found;
}

/** "09:00" on the place's clock. */
export function clockTime(instant: number, timeZone: string): string {
  const { hour, minute } = parts(instant, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${hour}:${minute}`;
}

/** "sáb 6 mar · 10:00": a row's title (at most 17 characters). */
export function rowTitle(instant: number, timeZone: string): string {
  const { weekday, day, month } = parts(instant, timeZone, { weekday: 'short', day: 'numeric', month: 'short' });
  return `${weekday} ${day} ${month} · ${clockTime(instant, timeZone)}`.replaceAll('.', '');
}

/** "Sábado 6 de marzo", or "Miércoles 29 de sep" when the month's name makes it longer than a section's title may be. */
export function dayTitle(instant: number, timeZone: string): string {
  const long = parts(instant, timeZone, { weekday: 'long', day: 'numeric', month: 'long' });
  const capital = (word = '') => word.charAt(0).toUpperCase() + word.slice(1);
  const title = `${capital(long.weekday)} ${long.day} de ${long.month}`;
  if (title.length <= LIST_LIMITS.sectionTitle) return title;
  const short = parts(instant, timeZone, { month: 'short' });
  return `${capital(long.weekday)} ${long.day} de ${short.month}`
    .replaceAll('.', '')
    .slice(0, LIST_LIMITS.sectionTitle);
}

/** The date of `instant` on the place's calendar ("2027-03-06"). */
function dateOf(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant);
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The slots offered: the earliest of each day, up to three a day two hours apart, ten at most. */
export function pickSlots(starts: readonly number[], timeZone: string): number[] {
  const picked: number[] = [];
  const byDay = new Map<string, number[]>();
  for (const start of [...starts].sort((a, b) => a - b)) {
    if (picked.length === LIST_LIMITS.rows) break;
    const day = dateOf(start, timeZone);
    const ofDay = byDay.get(day) ?? [];
    const last = ofDay.at(-1);
    if (ofDay.length >= PER_DAY || (last !== undefined && start - last < SPACING_MS)) continue;
    ofDay.push(start);
    byDay.set(day, ofDay);
    picked.push(start);
  }
  return picked;
}

export interface SlotListMessage {
  /** What the conversation shows and stores as the message's text. */
  body: string;
  /** Meta's `interactive` object, with the rows' signed ids. */
  interactive: {
    type: 'list';
    body: { text: string };
    footer: { text: string };
    action: {
      button: string;
      sections: { title: string; rows: { id: string; title: string; description: string }[] }[];
    };
  };
}

/**
 * The list of `starts` (already free, in any order) of `kind` at `place`,
 * for `contactId` (its rows are signed for that contact); `intro` opens the
 * body (a greeting, or the apology for a slot taken meanwhile). Null when
 * there is no slot to offer.
 */
export function slotListMessage(
  contactId: string,
  kind: AppointmentKind,
  place: AppointmentPlace,
  starts: readonly number[],
  intro: string,
): SlotListMessage | null {
  const picked = pickSlots(starts, place.timeZone);
  if (picked.length === 0) return null;
  const clock = clockName(place.timeZone);
  const sections: SlotListMessage['interactive']['action']['sections'] = [];
  let currentDay = '';
  for (const start of picked) {
    const day = dateOf(start, place.timeZone);
    if (day !== currentDay) {
      sections.push({ title: dayTitle(start, place.timeZone), rows: [] });
      currentDay = day;
    }
    sections.at(-1)?.rows.push({
      id: slotRowId(contactId, { kind: kind.id, place: place.id, start }),
      title: rowTitle(start, place.timeZone),
      description: cut(`${kind.name} · ${place.name}`, LIST_LIMITS.rowDescription),
    });
  }
  const text = cut(
    `${intro}Estos son los próximos horarios libres para «${kind.name}» en ${place.name}` +
      ` (${kind.durationMinutes} min, hora de ${clock}). Toca «${LIST_BUTTON}», elige uno y queda agendado.`,
    LIST_LIMITS.body,
  );
  const footer = cut(`Horarios en hora de ${clock}`, LIST_LIMITS.footer);
  return {
    body: text,
    interactive: { type: 'list', body: { text }, footer: { text: footer }, action: { button: LIST_BUTTON, sections } },
  };
}

/** What the panel shows of a list we sent (its stored `interactive`), without the rows' ids. */
export function listOf(interactive: unknown): InteractiveList | null {
  const value = interactive as {
    type?: unknown;
    footer?: { text?: unknown };
    action?: { button?: unknown; sections?: unknown };
  } | null;
  if (value?.type !== 'list' || !Array.isArray(value.action?.sections)) return null;
  const text = (entry: unknown) => (typeof entry === 'string' ? entry : '');
  return {
    button: text(value.action.button),
    footer: typeof value.footer?.text === 'string' ? value.footer.text : null,
    sections: (value.action.sections as { title?: unknown; rows?: unknown }[]).map((section) => ({
      title: text(section?.title),
      rows: (Array.isArray(section?.rows) ? (section.rows as { title?: unknown; description?: unknown }[]) : []).map(
        (row) => ({
          title: text(row?.title),
          description: typeof row?.description === 'string' ? row.description : null,
        }),
      ),
    })),
  };
}

/**
 * The list of the next free slots of `kindId` at `placeId` for a contact,
 * from now to the kind's horizon; null when the kind or the place is
 * unknown, or nothing is free.
 */
export async function freeSlotList(
  db: Queryable,
  contactId: string,
  kindId: string,
  placeId: string,
  now: number,
  intro: string,
): Promise<{ list: SlotListMessage; kind: AppointmentKind; place: AppointmentPlace } | null> {
  const kind = appointmentKind(kindId);
  const place = appointmentPlace(placeId);
  if (!kind || !place || !kind.places.includes(place.id)) return null;
  const slots = await availableSlots(db, kind, place, now, now + kind.horizonDays * 86_400_000, now);
  const list = slotListMessage(
    contactId,
    kind,
    place,
    slots.map((slot) => slot.start),
    intro,
  );
  return list ? { list, kind, place } : null;
}

/** The kinds of appointment some active member gives, at each of their places: what "Horarios disponibles" offers. */
export async function slotOptions(db: Queryable): Promise<SlotOption[]> {
  const { rows } = await db.query<{ kind: string }>(
    `SELECT DISTINCT k.kind FROM member_appointment_kinds k JOIN users u ON u.id = k.member_id
     WHERE u.deactivated_at IS NULL`,
  );
  const given = new Set(rows.map((row) => row.kind));
  return APPOINTMENTS.kinds
    .filter((kind) => given.has(kind.id))
    .flatMap((kind) =>
      kind.places.flatMap((placeId) => {
        const place = appointmentPlace(placeId);
        return place ? [{ appointment: kind.id, place: place.id, label: `${kind.name} · ${place.name}` }] : [];
      }),
    );
}
