/**
 * The WhatsApp message templates the team may send (issue #27): each must be
 * approved, with the same name, language and body, in WhatsApp Manager
 * (Meta's "message templates"); marketing adds one here and nowhere else.
 * The body is what the panel shows and stores; its `{variable}` marks, in
 * order, are the template's body parameters {{1}}, {{2}}... Variables come
 * from the contact: `{nombre}` is their first name, only when their name reads
 * as a real name (src/lib/person-name.ts); otherwise the template's approved
 * twin without the name is sent (`withoutName`, decision 0049): what a
 * visitor typed never becomes words of our number's. Browser-safe.
 */

import { greetingName } from '../person-name.ts';

export const TEMPLATE_VARIABLES = {
  nombre: 'el nombre del prospecto',
  // An appointment's (issue #40, decision 0060): our own words and data, never what the visitor typed.
  cita: 'el tipo de cita (src/data/appointments.json)',
  fecha: 'el día y la hora de la cita, en el reloj de su lugar',
  lugar: 'el lugar de la cita (src/data/appointments.json)',
  enlace: 'el enlace firmado para cambiar o cancelar la cita, o la página de los modelos',
  // The voice agent's (issue #42, decision 0071): the catalogue's names and prices, never what the caller said.
  modelos: 'los modelos que el agente de voz platicó, con su precio «desde» (src/data/models.json)',
} as const;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;
/** A template's values: `nombre` from the contact, the others from what the message is about. */
export type TemplateValues = Partial<Record<TemplateVariable, string>>;

export interface WhatsappTemplate {
  /** The template's name in WhatsApp Manager (a-z, 0-9, _). */
  name: string;
  /** What the composer's list shows. */
  label: string;
  /** Its language code in WhatsApp Manager. */
  language: string;
  /** The approved text, with `{variable}` where WhatsApp has {{1}}, {{2}}... in that order. */
  body: string;
  /** A template with `{nombre}`: its approved twin without it (NAMELESS_TEMPLATES), sent when the name is no name. */
  withoutName?: string;
}

export const WHATSAPP_TEMPLATES = [
  {
    name: 'primer_contacto',
    label: 'Primer contacto',
    language: 'es_MX',
    body: 'Hola {nombre}, gracias por escribir a Ceiba Casas Modulares. Un asesor te contactará muy pronto por este medio.',
    withoutName: 'primer_contacto_sin_nombre',
  },
  {
    name: 'retomar_conversacion',
    label: 'Retomar la conversación',
    language: 'es_MX',
    body: 'Hola {nombre}, ¿sigues interesado en tu casa Ceiba? Responde a este mensaje y un asesor te atiende.',
    withoutName: 'retomar_conversacion_sin_nombre',
  },
  {
    name: 'recordatorio_visita',
    label: 'Recordatorio de visita',
    language: 'es_MX',
    body: 'Hola {nombre}, te recordamos tu visita a nuestra casa muestra en Mérida. Si necesitas cambiar el horario, responde a este mensaje.',
    withoutName: 'recordatorio_visita_sin_nombre',
  },
] as const satisfies readonly WhatsappTemplate[];

/**
 * The twins without a name of the templates above: never chosen in the
 * composer, sent in their place to a contact whose name is no name. Each is
 * approved in WhatsApp Manager too, with this name and text.
 */
export const NAMELESS_TEMPLATES = [
  {
    name: 'primer_contacto_sin_nombre',
    label: 'Primer contacto',
    language: 'es_MX',
    body: 'Hola, gracias por escribir a Ceiba Casas Modulares. Un asesor te contactará muy pronto por este medio.',
  },
  {
    name: 'retomar_conversacion_sin_nombre',
    label: 'Retomar la conversación',
    language: 'es_MX',
    body: 'Hola, ¿sigues interesado en tu casa Ceiba? Responde a este mensaje y un asesor te atiende.',
  },
  {
    name: 'recordatorio_visita_sin_nombre',
    label: 'Recordatorio de visita',
    language: 'es_MX',
    body: 'Hola, te recordamos tu visita a nuestra casa muestra en Mérida. Si necesitas cambiar el horario, responde a este mensaje.',
  },
] as const satisfies readonly WhatsappTemplate[];

/**
 * An appointment's messages to the buyer (issue #40, decision 0060), sent by
 * the site itself (src/server/appointment-messages/messages.ts), never from the
 * composer: they need an appointment. Utility templates; each has its twin
 * without the name (APPOINTMENT_NAMELESS_TEMPLATES).
 */
export const APPOINTMENT_TEMPLATES = [
  {
    name: 'cita_confirmada',
    label: 'Confirmación de la cita',
    language: 'es_MX',
    body: 'Hola {nombre}, tu cita «{cita}» quedó agendada para el {fecha} en {lugar}. Para cambiarla o cancelarla: {enlace}',
    withoutName: 'cita_confirmada_sin_nombre',
  },
  {
    name: 'cita_recordatorio',
    label: 'Recordatorio de la cita',
    language: 'es_MX',
    body: 'Hola {nombre}, te recordamos tu cita «{cita}» el {fecha} en {lugar}. Si no puedes llegar, cámbiala o cancélala aquí: {enlace}',
    withoutName: 'cita_recordatorio_sin_nombre',
  },
  {
    name: 'cita_cambiada',
    label: 'Cambio de la cita',
    language: 'es_MX',
    body: 'Hola {nombre}, tu cita «{cita}» cambió: ahora es el {fecha} en {lugar}. Para cambiarla o cancelarla: {enlace}',
    withoutName: 'cita_cambiada_sin_nombre',
  },
  {
    name: 'cita_cancelada',
    label: 'Cancelación de la cita',
    language: 'es_MX',
    body: 'Hola {nombre}, tu cita «{cita}» del {fecha} en {lugar} quedó cancelada. Si quieres agendar otra, responde a este mensaje.',
    withoutName: 'cita_cancelada_sin_nombre',
  },
] as const satisfies readonly WhatsappTemplate[];

export const APPOINTMENT_NAMELESS_TEMPLATES = [
  {
    name: 'cita_confirmada_sin_nombre',
    label: 'Confirmación de la cita',
    language: 'es_MX',
    body: 'Hola, tu cita «{cita}» quedó agendada para el {fecha} en {lugar}. Para cambiarla o cancelarla: {enlace}',
  },
  {
    name: 'cita_recordatorio_sin_nombre',
    label: 'Recordatorio de la cita',
    language: 'es_MX',
    body: 'Hola, te recordamos tu cita «{cita}» el {fecha} en {lugar}. Si no puedes llegar, cámbiala o cancélala aquí: {enlace}',
  },
  {
    name: 'cita_cambiada_sin_nombre',
    label: 'Cambio de la cita',
    language: 'es_MX',
    body: 'Hola, tu cita «{cita}» cambió: ahora es el {fecha} en {lugar}. Para cambiarla o cancelarla: {enlace}',
  },
  {
    name: 'cita_cancelada_sin_nombre',
    label: 'Cancelación de la cita',
    language: 'es_MX',
    body: 'Hola, tu cita «{cita}» del {fecha} en {lugar} quedó cancelada. Si quieres agendar otra, responde a este mensaje.',
  },
] as const satisfies readonly WhatsappTemplate[];

/**
 * What the voice agent sends during a call (issue #42, decision 0071), at the
 * caller's request: the models they talked about, from the catalogue, to the
 * number they gave. Sent by the site (src/server/voice/tools.ts), once per
 * call and per number a day; a marketing template with its twin without the name.
 */
export const VOICE_TEMPLATES = [
  {
    name: 'modelos_de_llamada',
    label: 'Modelos de la llamada',
    language: 'es_MX',
    body: 'Hola {nombre}, gracias por llamar a Ceiba Casas Modulares. Estos son los modelos que platicamos: {modelos}. Míralos con fotos en {enlace} y responde a este mensaje si tienes dudas.',
    withoutName: 'modelos_de_llamada_sin_nombre',
  },
  {
    name: 'modelos_de_llamada_sin_nombre',
    label: 'Modelos de la llamada',
    language: 'es_MX',
    body: 'Hola, gracias por llamar a Ceiba Casas Modulares. Estos son los modelos que platicamos: {modelos}. Míralos con fotos en {enlace} y responde a este mensaje si tienes dudas.',
  },
] as const satisfies readonly WhatsappTemplate[];

export type AppointmentTemplateName = (typeof APPOINTMENT_TEMPLATES)[number]['name'];

/** Every template that must be approved in WhatsApp Manager. */
export const APPROVED_TEMPLATES: readonly WhatsappTemplate[] = [
  ...WHATSAPP_TEMPLATES,
  ...NAMELESS_TEMPLATES,
  ...APPOINTMENT_TEMPLATES,
  ...APPOINTMENT_NAMELESS_TEMPLATES,
  ...VOICE_TEMPLATES,
];

export type TemplateName = (typeof WHATSAPP_TEMPLATES)[number]['name'];
export const TEMPLATE_NAMES = WHATSAPP_TEMPLATES.map((template) => template.name) as [TemplateName, ...TemplateName[]];

export function findTemplate(name: string): WhatsappTemplate | undefined {
  return APPROVED_TEMPLATES.find((template) => template.name === name);
}

/** The variables a body uses, in order (each occurrence is a parameter). */
export function templateVariables(body: string): TemplateVariable[] {
  return [...body.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as TemplateVariable);
}

/**
 * What goes to a contact for `template`: the template itself with the
 * contact's first name, or, when their name is no name (a URL, digits,
 * markup...), its twin without the name.
 */
export function templateFor(
  template: WhatsappTemplate,
  contact: { name: string },
  others: Omit<TemplateValues, 'nombre'> = {},
): { template: WhatsappTemplate; values: TemplateValues } {
  const nombre = greetingName(contact.name);
  if (nombre !== null || !templateVariables(template.body).includes('nombre')) {
    return { template, values: { ...others, nombre: nombre ?? '' } };
  }
  const twin = findTemplate(template.withoutName ?? '');
  if (!twin || templateVariables(twin.body).includes('nombre')) {
    throw new Error(`The template ${template.name} has no approved twin without {nombre} (withoutName).`);
  }
  return { template: twin, values: { ...others, nombre: '' } };
}

/** The body with its variables filled in (what the panel shows and stores). */
export function renderTemplate(template: WhatsappTemplate, values: TemplateValues): string {
  return template.body.replace(/\{(\w+)\}/g, (mark, name: string) => values[name as TemplateVariable] ?? mark);
}

/** The template's body parameters, in order (the Cloud API's components[0].parameters). */
export function templateParameters(template: WhatsappTemplate, values: TemplateValues): string[] {
  return templateVariables(template.body).map((name) => values[name] ?? '');
}
