/**
 * What a buyer reads about paying an appointment (issue #41): the payment
 * endpoints' messages and the texts of the page /pagar. No import at all:
 * the page's script carries them without zod.
 */

export const PAYMENT_MESSAGES = {
  off: 'Los pagos en línea no están disponibles. Escríbenos por WhatsApp y te decimos cómo pagar.',
  invalidLink: 'Esta liga de pago no es válida. Usa la más reciente que te enviamos o escríbenos por WhatsApp.',
  expiredLink: 'Esta liga de pago ya venció. Escríbenos por WhatsApp y con gusto te ayudamos.',
  invalid: 'Falta la liga de pago. Ábrela de nuevo desde el mensaje que te enviamos.',
  paid: 'Esta cita ya está pagada. ¡Te esperamos!',
  pending:
    'Ya elegiste pagar en OXXO o por transferencia: usa la referencia que te dimos. Cuando llegue el pago te avisamos.',
  cancelled: 'Esta cita ya no está apartada. Agenda otra desde el sitio o escríbenos por WhatsApp.',
  expired: 'El apartado de este horario venció sin pago. Agenda de nuevo desde el sitio.',
  free: 'Esta cita no tiene costo: no hay nada que pagar.',
  begun: 'Esta cita ya pasó.',
  provider: 'No pudimos abrir el pago en este momento. Intenta de nuevo en unos minutos.',
  unavailable: 'No pudimos consultar tu pago en este momento. Intenta de nuevo en unos minutos.',
} as const;

/** A payment's states and ways, as the panel names them (issue #41, part 3). */
export const PAYMENT_STATUSES = ['abierto', 'pendiente', 'pagado', 'vencido', 'reembolsado'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentMethod = 'tarjeta' | 'oxxo' | 'spei';

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  abierto: 'Sin pagar',
  pendiente: 'Pendiente',
  pagado: 'Pagado',
  vencido: 'Vencido',
  reembolsado: 'Reembolsado',
};

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  tarjeta: 'Tarjeta',
  oxxo: 'OXXO',
  spei: 'Transferencia SPEI',
};

export type NotPayableReason = 'paid' | 'pending' | 'cancelled' | 'expired' | 'free' | 'begun';

/** What GET /api/pagos/estado answers: the appointment, its latest payment, and whether it can be paid now. */
export interface PaymentPageAnswer {
  kind: string;
  place: string;
  /** "sábado 6 de marzo de 2027, 10:00 (hora de Mérida)". */
  when: string;
  priceMxn: number;
  appointmentStatus: string;
  /** Until when the slot is held for the payment (ISO), while "por pagar"; shown on the place's clock. */
  holdUntil: string | null;
  /** The place's clock (IANA zone), the one `when` is written on. */
  timeZone: string;
  /** Whom the kind is for: where another appointment of it is booked. */
  audience: 'compradores' | 'socios';
  payment: {
    status: 'abierto' | 'pendiente' | 'pagado' | 'vencido' | 'reembolsado';
    method: 'tarjeta' | 'oxxo' | 'spei' | null;
    payBy: string | null;
    voucher: {
      number?: string;
      reference?: string;
      clabe?: string;
      bank?: string;
      holder?: string;
      url?: string;
      /** A transfer of less than the amount: what arrived and what is missing, in pesos. */
      receivedMxn?: number;
      remainingMxn?: number;
    } | null;
  } | null;
  /** Why it cannot be paid now, or null when the button to pay is offered. */
  notPayable: NotPayableReason | null;
}

/** The page /pagar. */
export const PAYMENT_PAGE_WORDS = {
  title: 'Pago de tu cita',
  loading: 'Cargando los datos de tu cita…',
  pay: (price: string) => `Pagar ${price} MXN`,
  paying: 'Abriendo el pago…',
  methods:
    'Paga con tarjeta de crédito o débito; si tu cita es en más de tres días, también en OXXO o por transferencia SPEI.',
  secure: 'El pago se hace en la página segura de Stripe. No guardamos los datos de tu tarjeta.',
  heldUntil: (when: string) => `Tu horario está apartado hasta el ${when}.`,
  checking: 'Estamos confirmando tu pago. Esta página se actualiza sola en unos segundos.',
  checkingLong:
    'Tu pago todavía no se confirma. Si ya pagaste, no lo repitas: revisa de nuevo en unos minutos o escríbenos por WhatsApp.',
  checkAgain: 'Revisar de nuevo',
  paidTitle: '¡Pago recibido!',
  paidText:
    'Tu cita quedó confirmada. Si nos dejaste tu correo, ahí te llega la confirmación con el archivo para tu calendario.',
  paidCancelledTitle: 'Tu cita se canceló',
  paidCancelledText:
    'Tenemos registrado tu pago. Te escribimos por WhatsApp para agendar otra cita o, si corresponde, devolverte tu dinero.',
  pendingTitle: 'Tu pago está pendiente',
  oxxoText: (deadline: string) =>
    `Paga en cualquier OXXO antes del ${deadline} con este número de referencia. Cuando llegue tu pago, tu cita queda confirmada y te avisamos.`,
  speiText: (deadline: string) =>
    `Transfiere desde tu banco antes del ${deadline} a esta CLABE, con esta referencia. Cuando llegue tu transferencia, tu cita queda confirmada y te avisamos.`,
  partialText: (received: string, remaining: string, deadline: string) =>
    `Recibimos ${received} MXN de tu transferencia. Faltan ${remaining} MXN: transfiérelos a la misma CLABE, con la misma referencia, antes del ${deadline}.`,
  pendingText: (deadline: string) => `Completa tu pago antes del ${deadline}. Cuando llegue, te avisamos.`,
  reference: 'Referencia',
  clabe: 'CLABE',
  bank: 'Banco',
  holder: 'Beneficiario',
  voucher: 'Ver la ficha de pago',
  expiredTitle: 'El pago venció',
  refundedTitle: 'Pago reembolsado',
  refundedText: 'Te devolvimos el pago de esta cita. Puede tardar unos días en verse en tu estado de cuenta.',
  again: 'Agendar otra cita',
  whatsapp: 'Escríbenos por WhatsApp',
} as const;
