import { useEffect, useState } from 'react';

/** setTimeout's longest wait (about 24.8 days): an instant further ahead is waited for by the next render. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

/**
 * Whether `instant` (ISO) has passed, drawn again the moment it passes: a
 * page left open across an appointment's start (Hoy opened at 9:50 for a
 * 10:00 visit) offers "Asistió" / "No asistió" at 10:00 without a reload.
 */
export function usePassed(instant: string | null): boolean {
  const at = instant === null ? Number.NaN : Date.parse(instant);
  const [, redraw] = useState(0);
  useEffect(() => {
    const wait = at - Date.now();
    if (!(wait > 0) || wait > LONGEST_WAIT_MS) return;
    const timer = setTimeout(() => redraw((count) => count + 1), wait + 50);
    return () => clearTimeout(timer);
  }, [at]);
  return at <= Date.now();
}
