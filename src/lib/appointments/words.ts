/**
 * What a visitor reads about appointments (issue #40, decision 0059): the
 * endpoints' messages (re-exported by booking.ts and manage.ts, where the
 * shapes are) and the texts of the slot picker and the buyer's page /cita.
 * Kept apart from the shapes, importing only the money's formatter
 * (src/lib/money.ts), so the islands carry their words without zod (the
 * picker's island has a 15 KB budget); the fields' rules and their messages stay in the shapes, and the server
 * answers with them (400 with `fields`).
 */

import { formatMxn } from '../money.ts';

/** The visitor's texts of the booking endpoints. */
export const BOOKING_MESSAGES = {
  invalid: 'Revisa los datos de tu cita.',
  taken: 'Ese horario ya no está disponible. Elige otro.',
  unknownKind: 'Ese tipo de cita no existe. Recarga la página y elige otro.',
  unknownPlace: 'Ese lugar no está disponible para este tipo de cita. Elige otro.',
  failure: 'No pudimos agendar tu cita. Intenta de nuevo en unos minutos o escríbenos por WhatsApp.',
  keyReused: 'Esta cita ya se envió con otros datos. Recarga la página y agéndala de nuevo.',
  tooMany:
    'Ya tienes 3 citas próximas con nosotros. Para agendar otra, cancela o cambia una con el enlace de tu confirmación, o escríbenos por WhatsApp.',
  unavailable: 'No pudimos consultar ni agendar citas en este momento. Intenta de nuevo en unos minutos.',
  alreadyHeld:
    'Ya tienes una cita con nosotros a esa hora. Revisa la confirmación que te enviamos; desde su enlace puedes cambiarla o cancelarla.',
  /** The panel's, booking for a contact. */
  contactHeld: 'Este prospecto ya tiene una cita a esa hora. Cámbiala o cancélala antes de agendar otra.',
} as const;

/** The texts of the buyer's page and its endpoint. */
export const MANAGE_MESSAGES = {
  invalidLink: 'Este enlace no es válido. Usa el enlace más reciente que te enviamos o escríbenos por WhatsApp.',
  expiredLink: 'Este enlace ya venció. Escríbenos por WhatsApp y con gusto te ayudamos.',
  cancelled: 'Esta cita ya está cancelada. Si quieres otra, agéndala desde el sitio o escríbenos por WhatsApp.',
  holdExpired:
    'El apartado de este horario venció sin pago, así que ya no está reservado. Agenda otra cita desde el sitio o escríbenos por WhatsApp.',
  cutoff:
    'Ya no es posible cambiar esta cita en línea porque falta muy poco para el horario. Escríbenos por WhatsApp y te ayudamos.',
  tooManyMoves:
    'Ya cambiaste esta cita 3 veces en línea. Para moverla otra vez, escríbenos por WhatsApp y con gusto te ayudamos.',
  taken: 'Ese horario ya no está disponible. Elige otro.',
  invalid: 'Revisa el horario que elegiste.',
  unavailable: 'No pudimos consultar tu cita en este momento. Intenta de nuevo en unos minutos.',
} as const;

/** The slot picker (SlotPicker.tsx) and the booking around it (BookingPicker.tsx). */
export const PICKER_WORDS = {
  kind: 'Tipo de cita',
  place: 'Lugar',
  day: 'Elige el día',
  time: 'Elige la hora',
  /** Before the zone's name, when the place is not on Mérida's clock: "Horarios en hora de Berlín". */
  zone: 'Horarios en',
  loading: 'Buscando horarios libres…',
  empty: 'No hay horarios libres en los próximos días para este lugar. Elige otro lugar o escríbenos por WhatsApp.',
  retry: 'Intentar de nuevo',
  moreDays: 'Ver más días',
  noTime: 'Elige un día y una hora de la lista.',
  you: 'Tus datos',
  name: 'Nombre',
  phone: 'WhatsApp',
  phoneHint: 'A este número te enviamos la confirmación y los recordatorios.',
  email: 'Correo',
  emailHint: 'Te enviamos la cita para tu calendario.',
  privacy: 'Al agendar aceptas nuestro ',
  privacyLink: 'Aviso de privacidad',
  submit: 'Agendar cita',
  submitPaid: 'Apartar mi lugar',
  busy: 'Agendando…',
  takenReloaded: 'Ese horario ya no está disponible: actualizamos la lista, elige otro. Tus datos siguen aquí.',
  free: 'Sin costo',
  price: formatMxn,
  duration: (minutes: number) => `${minutes} min`,
  confirmedTitle: '¡Listo, tu cita está agendada!',
  heldTitle: 'Apartamos tu lugar',
  confirmedText: 'Te enviamos la confirmación por WhatsApp con el enlace para cambiarla o cancelarla.',
  heldText: (until: string) =>
    `Tu cita queda por pagar: la guardamos hasta el ${until}. Paga para confirmarla; si no, el horario se libera.`,
  pay: 'Pagar ahora',
  status: { por_pagar: 'Por pagar', confirmada: 'Confirmada' } as Record<string, string>,
  another: 'Agendar otra cita',
} as const;

/** The buyer's page /cita (ManageAppointment.tsx). */
export const MANAGE_WORDS = {
  title: 'Tu cita',
  loading: 'Consultando tu cita…',
  retry: 'Intentar de nuevo',
  when: 'Fecha y hora',
  where: 'Lugar',
  state: 'Estado',
  statuses: {
    por_pagar: 'Por pagar',
    confirmada: 'Confirmada',
    cancelada: 'Cancelada',
    asistio: 'Asististe',
    no_asistio: 'No asististe',
  } as Record<string, string>,
  changeUntil: (until: string) => `Puedes cambiarla o cancelarla aquí hasta el ${until}.`,
  payFirst: 'Tu cita está apartada por poco tiempo: págala para confirmarla.',
  pay: 'Pagar mi cita',
  reschedule: 'Cambiar fecha u hora',
  cancel: 'Cancelar cita',
  keep: 'No, conservarla',
  confirmCancelTitle: '¿Cancelar tu cita?',
  confirmCancelText: 'El horario se libera para otra persona. Si después quieres otra, puedes agendarla de nuevo.',
  /** A paid appointment: what a cancellation does to its payment. */
  refunded: (amount: string, until: string) => `Si cancelas antes del ${until}, te devolvemos tu pago de ${amount}.`,
  notRefunded: (amount: string) => `Si cancelas ahora, tu pago de ${amount} ya no se devuelve.`,
  /** A paid appointment moved once its refund window has closed keeps no refund. */
  moveForfeits: (amount: string) =>
    `Si la cambias ahora, tu pago de ${amount} se abona a la nueva cita y ya no se devuelve si luego la cancelas.`,
  confirmCancel: 'Sí, cancelar',
  cancelling: 'Cancelando…',
  cancelled: 'Tu cita quedó cancelada. Te enviamos la confirmación por WhatsApp.',
  moveTitle: 'Elige el nuevo horario',
  move: 'Cambiar a este horario',
  moving: 'Cambiando…',
  back: 'Volver',
  moved: 'Listo: cambiamos tu cita. Te enviamos la confirmación por WhatsApp.',
  unchanged: 'Ese ya es el horario de tu cita, así que no cambió nada.',
  whatsapp: 'Escribir por WhatsApp',
  home: 'Ir al inicio',
} as const;
