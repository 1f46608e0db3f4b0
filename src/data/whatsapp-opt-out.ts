/**
 * What a contact writes on WhatsApp to stop our automatic messages (issue
 * #38, item 8, decision 0050): the team's list, edited here. A message opts
 * out when, read as `isOptOut` reads it (src/server/whatsapp/payload.ts:
 * width folded by NFKC, lower case, without accents, every sign, emoji and
 * space between words made one space), it is one of `phrases`, with nothing
 * else around it but `courtesy` (before or after, any number of them). So
 * "Baja por favor", "BAJA, gracias", "ＳＴＯＰ" and "Hola, denme de baja 🙏"
 * opt out; "no me des de baja", "Baja California" or "¿Cómo me doy de baja?"
 * do not: a sentence that merely contains the word is for an adviser to read.
 *
 * Written as they are read: lower case, no accents, words separated by one
 * space (src/server/whatsapp/payload.test.ts holds every entry to it).
 */
export const WHATSAPP_OPT_OUT = {
  /** The whole request. A button or list reply is read by its title. */
  phrases: [
    'baja',
    'alto',
    'stop',
    'dame de baja',
    'denme de baja',
    'darme de baja',
    'quiero darme de baja',
    'ya no me escriban',
    'ya no me manden mensajes',
    'no me manden mensajes',
    'unsubscribe',
  ],
  /** Greetings and thanks that may come before or after it. */
  courtesy: [
    'por favor',
    'porfavor',
    'porfa',
    'porfis',
    'plis',
    'please',
    'x favor',
    'xfa',
    'xfavor',
    'gracias',
    'muchas gracias',
    'mil gracias',
    'de antemano gracias',
    'thanks',
    'hola',
    'buen dia',
    'buenos dias',
    'buenas',
    'buenas tardes',
    'buenas noches',
    'saludos',
  ],
} as const satisfies { phrases: readonly string[]; courtesy: readonly string[] };
