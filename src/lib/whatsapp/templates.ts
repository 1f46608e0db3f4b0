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
} as const;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

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

/** Every template that must be approved in WhatsApp Manager. */
export const APPROVED_TEMPLATES: readonly WhatsappTemplate[] = [...WHATSAPP_TEMPLATES, ...NAMELESS_TEMPLATES];

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
): { template: WhatsappTemplate; values: Record<TemplateVariable, string> } {
  const nombre = greetingName(contact.name);
  if (nombre !== null || !templateVariables(template.body).includes('nombre')) {
    return { template, values: { nombre: nombre ?? '' } };
  }
  const twin = findTemplate(template.withoutName ?? '');
  if (!twin || templateVariables(twin.body).length > 0) {
    throw new Error(`The template ${template.name} has no approved twin without {nombre} (withoutName).`);
  }
  return { template: twin, values: { nombre: '' } };
}

/** The body with its variables filled in (what the panel shows and stores). */
export function renderTemplate(template: WhatsappTemplate, values: Record<TemplateVariable, string>): string {
  return template.body.replace(/\{(\w+)\}/g, (mark, name: string) => values[name as TemplateVariable] ?? mark);
}

/** The template's body parameters, in order (the Cloud API's components[0].parameters). */
export function templateParameters(template: WhatsappTemplate, values: Record<TemplateVariable, string>): string[] {
  return templateVariables(template.body).map((name) => values[name] ?? '');
}
