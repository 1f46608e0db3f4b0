import { expect, test } from 'vitest';
import { appointmentsAheadText, type OutcomeSaved } from './outcomes.ts';

const saved = (appointmentsAhead: number, appointmentsAheadOfOthers: number): OutcomeSaved => ({
  id: '1b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e',
  state: 'cerrado_perdido',
  lostReason: 'sin_presupuesto',
  nextContactAt: null,
  attempts: 1,
  version: 2,
  lastActivityAt: '2026-12-01T16:00:00.000Z',
  appointmentsAhead,
  appointmentsAheadOfOthers,
});

test('a contact closed with no appointment ahead says nothing more', () => {
  expect(appointmentsAheadText(saved(0, 0), false)).toBeNull();
});

test('an adviser is told to cancel only what is hers, and to tell whoever gives the rest', () => {
  expect(appointmentsAheadText(saved(1, 0), false)).toBe('Su cita sigue agendada: cancélala en «Citas» si ya no va.');
  expect(appointmentsAheadText(saved(1, 1), false)).toBe(
    'Su cita con otra persona del equipo sigue agendada: avísale si ya no va.',
  );
  expect(appointmentsAheadText(saved(2, 2), false)).toBe(
    'Sus 2 citas con otras personas del equipo siguen agendadas: avísales si ya no va.',
  );
  expect(appointmentsAheadText(saved(3, 1), false)).toBe(
    'Sus 3 citas siguen agendadas: cancela las tuyas en «Citas» y avisa a quien atiende las demás si ya no va.',
  );
});

test('an administrator may cancel any of them', () => {
  expect(appointmentsAheadText(saved(2, 2), true)).toBe(
    'Sus 2 citas siguen agendadas: cancélalas en «Citas» si ya no va.',
  );
});
