/**
 * The question a person who wrote from a Click-to-WhatsApp ad is asked once
 * (issue #43, decision 0083): the web forms' box «Quiero recibir novedades y
 * promociones», as WhatsApp buttons. Only their press of «Sí, quiero» lets us
 * tell Meta and Google what became of them, as the privacy notice says.
 * `{aviso}` is the privacy notice's address. WhatsApp's limits: the body up
 * to 1,024 characters, a button's title up to 20 (held by
 * src/server/whatsapp/consent.test.ts). The ids are what the platform gives
 * back with the press; a new wording keeps them.
 */
export const WHATSAPP_CONSENT = {
  body:
    '¡Gracias por escribirnos! Un asesor te responde en breve.\n\n' +
    '¿Quieres recibir novedades y promociones de nuestras casas? Si aceptas, también avisamos a Meta y a Google, ' +
    'con tus datos cifrados, cuando tu mensaje se convierte en una cita o una compra, para que sepan qué anuncios ' +
    'funcionan. Lo explicamos en nuestro aviso de privacidad: {aviso}',
  yes: { id: 'consentimiento:si', title: 'Sí, quiero' },
  no: { id: 'consentimiento:no', title: 'No, gracias' },
} as const;
