/**
 * The WhatsApp message templates the team may send (issue #27): each must be
 * approved, with the same name, language and body, in WhatsApp Manager
 * (Meta's "message templates"); marketing adds one here and nowhere else.
 * The body is what the panel shows and stores; its `{variable}` marks, in
 * order, are the template's body parameters {{1}}, {{2}}... Variables come
 * from the contact: `{nombre}` is their first name. Browser-safe.
 */

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
}

export const WHATSAPP_TEMPLATES = [
  {
    name: 'primer_contacto',
    label: 'Primer contacto',
    language: 'es_MX',
    body: 'Hola {nombre}, gracias por escribir a Ceiba Casas Modulares. Un asesor te contactará muy pronto por este medio.',
  },
  {
    name: 'retomar_conversacion',
    label: 'Retomar la conversación',
    language: 'es_MX',
    body: 'Hola {nombre}, ¿sigues interesado en tu casa Ceiba? Responde a este mensaje y un asesor te atiende.',
  },
  {
    name: 'recordatorio_visita',
    label: 'Recordatorio de visita',
    language: 'es_MX',
    body: 'Hola {nombre}, te recordamos tu visita a nuestra casa muestra en Mérida. Si necesitas cambiar el horario, responde a este mensaje.',
  },
] as const satisfies readonly WhatsappTemplate[];

export type TemplateName = (typeof WHATSAPP_TEMPLATES)[number]['name'];
export const TEMPLATE_NAMES = WHATSAPP_TEMPLATES.map((template) => template.name) as [TemplateName, ...TemplateName[]];

export function findTemplate(name: string): WhatsappTemplate | undefined {
  return WHATSAPP_TEMPLATES.find((template) => template.name === name);
}

/** The variables a body uses, in order (each occurrence is a parameter). */
export function templateVariables(body: string): TemplateVariable[] {
  return [...body.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as TemplateVariable);
}

/** A person's first name for a greeting ("María José López" -> "María"); "" when there is none. */
export function firstName(name: string | null | undefined): string {
  return (name ?? '').trim().split(/\s+/)[0] ?? '';
}

/** The values a contact gives the variables. */
export function templateValues(contact: { name: string }): Record<TemplateVariable, string> {
  return { nombre: firstName(contact.name) || contact.name.trim() };
}

/** The body with its variables filled in (what the panel shows and stores). */
export function renderTemplate(template: WhatsappTemplate, values: Record<TemplateVariable, string>): string {
  return template.body.replace(/\{(\w+)\}/g, (mark, name: string) => values[name as TemplateVariable] ?? mark);
}

/** The template's body parameters, in order (the Cloud API's components[0].parameters). */
export function templateParameters(template: WhatsappTemplate, values: Record<TemplateVariable, string>): string[] {
  return templateVariables(template.body).map((name) => values[name] ?? '');
}
