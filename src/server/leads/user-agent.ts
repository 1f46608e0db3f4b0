/** A User-Agent as kept: printable characters only, at most 512 of them; null when nothing is left. */
export function keptUserAgent(value: string | null | undefined): string | null {
  const kept = value
    ?.replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 512);
  return kept ? kept : null;
}
