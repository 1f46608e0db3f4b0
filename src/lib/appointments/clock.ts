/**
 * The city whose clock a place keeps, as a person says it ("hora de
 * Mérida"): one list for the buyer's pages, the e-mails and the WhatsApp
 * lists. Browser-safe. A zone not listed is named by its IANA city.
 */
const CLOCKS: Record<string, string> = {
  'America/Merida': 'Mérida',
  'America/Mexico_City': 'Ciudad de México',
  'America/Cancun': 'Cancún',
  'Europe/Berlin': 'Berlín',
};

/** "Ciudad de México" for America/Mexico_City. */
export function clockName(timeZone: string): string {
  return CLOCKS[timeZone] ?? timeZone.split('/').at(-1)?.replaceAll('_', ' ') ?? timeZone;
}
