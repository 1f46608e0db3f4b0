import { describe, expect, it } from 'vitest';
import { APPOINTMENTS, appointmentKind, appointmentPlace } from './appointments.ts';
import { checkContent, readDataFiles } from './content-check.ts';
import { formatProblem } from './problems.ts';

type Appointments = { kinds: Record<string, unknown>[]; places: Record<string, unknown>[] };

const shipped = readDataFiles().data;
/** The shipped data with src/data/appointments.json changed by `change`: the content check's problems. */
function problemsWith(change: (appointments: Appointments) => void): string[] {
  const files = structuredClone(shipped);
  change(files.appointments as Appointments);
  return checkContent(files, []).map(formatProblem);
}

describe('the kinds of appointment and their places (src/data/appointments.json)', () => {
  it('ship the visit, the paid advisory and the partners’ session the issue names', () => {
    expect(appointmentKind('visita-casa-muestra')).toMatchObject({
      name: 'Visita a la casa muestra',
      durationMinutes: 60,
      places: ['casa-muestra-merida'],
      priceMxn: null,
    });
    expect(appointmentKind('asesoria-personalizada')).toMatchObject({
      durationMinutes: 30,
      places: ['oficina-cdmx', 'videollamada'],
      priceMxn: 499,
    });
    expect(appointmentKind('sesion-socios')).toMatchObject({ durationMinutes: 30, priceMxn: 899 });
    expect(appointmentPlace('casa-muestra-merida')?.timeZone).toBe('America/Merida');
    expect(appointmentPlace('oficina-cdmx')?.timeZone).toBe('America/Mexico_City');
    expect(appointmentPlace('videollamada-berlin')?.timeZone).toBe('Europe/Berlin');
    expect(APPOINTMENTS.kinds.every((kind) => kind.places.every((place) => appointmentPlace(place)))).toBe(true);
  });

  it('pass the content check as shipped', () => {
    expect(checkContent(shipped, []).filter((problem) => problem.file.endsWith('appointments.json'))).toEqual([]);
  });

  it('refuse, in Spanish, a wrong zone and a day that closes before it opens', () => {
    const found = problemsWith((appointments) => {
      (appointments.places[2] as { timeZone: string }).timeZone = 'Hora de Mérida';
      (appointments.places[3] as { hours: unknown[] }).hours[0] = { day: 'lunes', opens: '18:00', closes: '09:00' };
    }).join('\n');
    expect(found).toContain('campo "timeZone": escribe una zona horaria como "America/Merida"');
    expect(found).toContain('campo "closes": la hora de cierre debe ser después de la de apertura');
  });

  it('refuse, in Spanish, a place no kind can find and a repeated id (once every field is right)', () => {
    const found = problemsWith((appointments) => {
      (appointments.kinds[0] as { places: string[] }).places.push('oficina-monterrey');
      (appointments.places[1] as { id: string }).id = 'casa-muestra-merida';
    }).join('\n');
    expect(found).toContain('no hay un lugar con el identificador "oficina-monterrey"');
    expect(found).toContain('el identificador "casa-muestra-merida" ya lo tiene el lugar núm. 1');
  });
});
