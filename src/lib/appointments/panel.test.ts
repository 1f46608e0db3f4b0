import { describe, expect, it } from 'vitest';
import { availabilitySchema, MAX_WEEKLY_RANGES } from './panel.ts';

const valid = {
  timeZone: 'America/Merida',
  weekly: [
    { weekday: 1, starts: '09:00', ends: '14:00' },
    { weekday: 1, starts: '15:00', ends: '19:00' },
  ],
  kinds: ['visita-casa-muestra'],
};

/** The first message the island shows (and the server's 400 carries) for `input`, or null when it passes. */
function firstProblem(input: unknown): string | null {
  const checked = availabilitySchema.safeParse(input);
  return checked.success ? null : (checked.error.issues[0]?.message ?? '?');
}

describe('availabilitySchema (one definition for the panel and its function)', () => {
  it('passes a week of ranges and kinds as they are', () => {
    expect(availabilitySchema.parse(valid)).toEqual(valid);
  });

  it('words each problem of the week in Spanish, the range’s own first', () => {
    expect(firstProblem({ ...valid, weekly: 'lunes' })).toBe('Revisa tu horario semanal.');
    expect(firstProblem({ ...valid, weekly: [{ weekday: 2, starts: '18:00', ends: '09:00' }] })).toBe(
      'La hora de fin debe ser posterior a la de inicio.',
    );
    expect(firstProblem({ ...valid, weekly: [{ weekday: 9, starts: '09:00', ends: '10:00' }] })).toBe('Elige el día.');
    expect(
      firstProblem({
        ...valid,
        weekly: [
          { weekday: 2, starts: '09:00', ends: '12:00' },
          { weekday: 2, starts: '11:00', ends: '14:00' },
        ],
      }),
    ).toBe('Dos horarios del mismo día se enciman. Únelos o corrígelos.');
    const many = Array.from({ length: MAX_WEEKLY_RANGES + 1 }, (_, index) => ({
      weekday: (index % 7) + 1,
      starts: `${String(Math.floor(index / 7)).padStart(2, '0')}:00`,
      ends: `${String(Math.floor(index / 7)).padStart(2, '0')}:30`,
    }));
    expect(firstProblem({ ...valid, weekly: many })).toBe(`Deja como máximo ${MAX_WEEKLY_RANGES} horarios por semana.`);
  });

  it('refuses kinds that are not a list of ids', () => {
    expect(firstProblem({ ...valid, kinds: 'visita' })).toBe('Elige los tipos de cita que das.');
    expect(firstProblem({ ...valid, kinds: ['Visita <b>'] })).toBe('Elige tipos de cita de la lista.');
    expect(firstProblem({ ...valid, kinds: Array.from({ length: 21 }, (_, index) => `tipo-${index}`) })).toBe(
      'Elige tipos de cita de la lista.',
    );
  });
});
