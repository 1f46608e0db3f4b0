import { describe, expect, it } from 'vitest';
import { appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import type { AppointmentMessageJob } from '../appointments/changes.ts';
import { parseConfig } from '../config.ts';
import { type AppointmentFacts, buyerLink, calendarFile, staleBecause } from './messages.ts';

const START = Date.parse('2027-03-06T16:00:00Z');
const facts = (overrides: Partial<AppointmentFacts> = {}): AppointmentFacts => ({
  id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  status: 'confirmada',
  contactId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c',
  start: START,
  end: START + 3_600_000,
  holdUntil: null,
  priceMxn: null,
  sequence: 0,
  kind: appointmentKind('visita-casa-muestra') as NonNullable<ReturnType<typeof appointmentKind>>,
  place: appointmentPlace('casa-muestra-merida') as NonNullable<ReturnType<typeof appointmentPlace>>,
  contact: { name: 'María José Pech', phone: '+529991234567', email: 'maria@example.com', optedOut: false },
  member: null,
  holdsTime: true,
  ...overrides,
});
const job = (overrides: Partial<AppointmentMessageJob> = {}): AppointmentMessageJob => ({
  appointmentId: facts().id,
  to: 'buyer',
  channel: 'whatsapp',
  message: 'reminder',
  start: START,
  hoursBefore: 2,
  ...overrides,
});

describe('a message job when it runs', () => {
  const before = START - 2 * 3_600_000;
  it('sends while the appointment holds the time it was queued for and has not begun', () => {
    expect(staleBecause(job(), facts(), before)).toBeNull();
    expect(staleBecause(job(), null, before)).toBe('gone');
    expect(staleBecause(job(), facts({ start: START + 3_600_000 }), before)).toBe('moved');
    expect(staleBecause(job(), facts({ status: 'cancelada', holdsTime: false }), before)).toBe(
      'no longer holds its time',
    );
    // An unpaid hold that expired holds nothing, though its status still says por_pagar.
    expect(staleBecause(job(), facts({ status: 'por_pagar', holdsTime: false }), before)).toBe(
      'no longer holds its time',
    );
    expect(staleBecause(job(), facts(), START)).toBe('begun');
  });

  it('a cancellation goes only while the appointment is cancelled', () => {
    expect(
      staleBecause(job({ message: 'cancelled' }), facts({ status: 'cancelada', holdsTime: false }), before),
    ).toBeNull();
    expect(staleBecause(job({ message: 'cancelled' }), facts(), before)).toBe('not cancelled');
  });
});

describe('the buyer’s link to change or cancel', () => {
  const config = parseConfig({ SITE_URL: 'https://www.ceibacasas.mx', JWT_SECRET: 'x'.repeat(32) });
  it('is their page before the kind’s cutoff, and the chat with the team inside it, where the page refuses', () => {
    // The visit's cutoff is 2 hours: its 24-hour reminder links the page, its 2-hour one the chat.
    expect(buyerLink(facts(), config, START - 24 * 3_600_000)).toMatch(/^https:\/\/www\.ceibacasas\.mx\/cita\?t=/);
    const chat = buyerLink(facts(), config, START - 2 * 3_600_000);
    expect(chat).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
    expect(decodeURIComponent(chat.split('text=')[1] as string)).toMatch(
      /^Hola, tengo una cita «Visita a la casa muestra» el .+ y necesito cambiarla o cancelarla\.$/,
    );
  });
});

describe('the calendar file', () => {
  it('is one event in UTC, tentative while unpaid, without a name that is no name', () => {
    const file = calendarFile(
      facts({
        status: 'por_pagar',
        contact: { name: 'www.x.com', phone: '+529991234567', email: 'a@b.mx', optedOut: false },
      }),
      'https://www.ceibacasas.mx/cita?t=x',
    );
    const text = file.replace(/\r\n[ \t]/g, '');
    expect(text).toContain('DTSTART:20270306T160000Z');
    expect(text).toContain('STATUS:TENTATIVE');
    expect(text).toContain('METHOD:REQUEST');
    expect(text).not.toContain('www.x.com');
    expect(text).toMatch(/ATTENDEE;[^\r]*:mailto:a@b\.mx/i);
  });
});
