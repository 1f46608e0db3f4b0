import type { AppointmentPlace } from '../../data/appointments.ts';
import { clockName } from '../../lib/appointments/clock.ts';
import { placeMoment } from '../appointments/book.ts';

/** "sábado, 6 de marzo de 2027, 10:00 (hora de Mérida)": the moment on the place's clock, saying whose. */
export function placeTime(instant: number, place: AppointmentPlace): string {
  return `${placeMoment(instant, place.timeZone)} (hora de ${clockName(place.timeZone)})`;
}
