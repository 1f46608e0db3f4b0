/**
 * What the WhatsApp Cloud API's error codes mean for the team, in Spanish
 * (Meta's error code reference). Stored on a message that was not sent
 * (`error_reason`) and shown under it. Browser-safe.
 */
const REASONS: Record<number, string> = {
  0: 'El token de WhatsApp venció. Hay que generar uno nuevo (WHATSAPP_TOKEN).',
  1: 'WhatsApp no pudo procesar la solicitud. Inténtalo más tarde.',
  2: 'WhatsApp no está disponible por el momento. Inténtalo más tarde.',
  3: 'La cuenta de WhatsApp no tiene permiso para esta acción.',
  4: 'Se enviaron demasiadas solicitudes a WhatsApp. Inténtalo en unos minutos.',
  10: 'La aplicación no tiene permiso para enviar por este número de WhatsApp.',
  33: 'El número de WhatsApp de la empresa ya no existe (revisa WHATSAPP_PHONE_NUMBER_ID).',
  100: 'WhatsApp rechazó el mensaje por un dato no válido.',
  190: 'El token de WhatsApp no es válido o venció. Hay que generar uno nuevo (WHATSAPP_TOKEN).',
  368: 'La cuenta de WhatsApp está bloqueada temporalmente por infringir las políticas de Meta.',
  80007: 'La cuenta de WhatsApp llegó a su límite de solicitudes. Inténtalo más tarde.',
  130429: 'Se llegó al límite de mensajes por segundo de WhatsApp. Se reintentará.',
  130472: 'WhatsApp no entregó el mensaje porque el número participa en un experimento de Meta.',
  131000: 'WhatsApp tuvo un error desconocido al enviar el mensaje.',
  131005: 'La aplicación no tiene permiso para enviar este mensaje.',
  131008: 'Faltó un dato obligatorio del mensaje.',
  131009: 'Un dato del mensaje no es válido.',
  131016: 'WhatsApp está saturado. Inténtalo en un momento.',
  131021: 'No se puede enviar un mensaje al mismo número de la empresa.',
  131026:
    'El mensaje no se pudo entregar: el número no tiene WhatsApp, bloqueó a la empresa o usa una versión antigua.',
  131030: 'El número no está en la lista de destinatarios permitidos de la cuenta de prueba.',
  131031: 'La cuenta de WhatsApp de la empresa está bloqueada.',
  131042: 'Hay un problema con la forma de pago de la cuenta de WhatsApp.',
  131045: 'El número de la empresa no está registrado correctamente en WhatsApp.',
  131047: 'Pasaron más de 24 horas desde el último mensaje del prospecto: solo se puede enviar una plantilla aprobada.',
  131048: 'WhatsApp limitó los envíos de este número porque muchos mensajes se marcaron como spam.',
  131049: 'Meta decidió no entregar este mensaje para cuidar la experiencia del usuario. Inténtalo más tarde.',
  131050: 'El prospecto pidió no recibir mensajes de marketing de la empresa.',
  131051: 'WhatsApp no admite este tipo de mensaje.',
  131052: 'No se pudo descargar el archivo que envió el prospecto.',
  131053: 'No se pudo subir el archivo a WhatsApp.',
  131056: 'Se enviaron demasiados mensajes a este número en poco tiempo. Se reintentará.',
  131057: 'La cuenta de WhatsApp está en mantenimiento.',
  132000: 'El número de variables no coincide con la plantilla aprobada.',
  132001: 'La plantilla no existe en WhatsApp o no está aprobada en ese idioma.',
  132005: 'El texto de la plantilla con sus variables es demasiado largo.',
  132007: 'El texto de la plantilla no cumple las políticas de WhatsApp.',
  132012: 'Las variables no tienen el formato que pide la plantilla.',
  132015: 'La plantilla está pausada por su baja calidad.',
  132016: 'La plantilla está desactivada por su baja calidad.',
  133010: 'El número de la empresa no está registrado en WhatsApp.',
};

/** Codes a later attempt may fix (rate limits and outages): retried, the others fail at once. */
export const RETRYABLE_CODES: ReadonlySet<number> = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 131057]);

/**
 * The reason to show for an error code: ours in Spanish, or a Spanish
 * sentence with the code. The platform's own text (English, and not ours to
 * vouch for) is never shown to the team: the caller logs it.
 */
export function errorReason(code: number | null | undefined): string {
  if (code !== null && code !== undefined && REASONS[code]) return REASONS[code];
  return code === null || code === undefined
    ? 'WhatsApp no aceptó el mensaje.'
    : `WhatsApp no aceptó el mensaje (código ${code}).`;
}

/** After the last retry of a network failure or an outage. */
export const UNREACHABLE_REASON = 'No se pudo conectar con WhatsApp después de varios intentos.';
