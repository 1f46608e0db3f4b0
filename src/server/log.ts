/** One JSON line on standard output; only what is given, so no phone or e-mail ever gets in. */
export function logJson(level: 'info' | 'warn' | 'error', fields: Record<string, string | number | null>): void {
  const line = JSON.stringify({ level, time: new Date().toISOString(), ...fields });
  (level === 'info' ? console.log : level === 'warn' ? console.warn : console.error)(line);
}
