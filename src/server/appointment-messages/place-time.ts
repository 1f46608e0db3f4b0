import type { AppointmentPlace } from '../../data/appointments.ts';
import { placeMoment } from '../appointments/book.ts';

/** The city whose clock a place keeps, as a person says it ("hora de Mérida"). */
const ZONE_CITY: Record<string, string> = {
  'America/Merida': 'Mérida',
  'America/Mexico_City': 'Ciudad de México',
  'America/Cancun': 'Cancún',
  'Europe/Berlin': 'Berlín',
};

/** "sábado, 6 de marzo de 2027, 10:00 (hora de Mérida)": the moment on the place's clock, saying whose. */
export function placeTime(instant: number, place: AppointmentPlace): string {
  const city = ZONE_CITY[place.timeZone] ?? place.timeZone.split('/').at(-1)?.replaceAll('_', ' ');
  return `${placeMoment(instant, place.timeZone)} (hora de ${city})`;
}
