import type * as z from 'zod/mini';
import type { Toast } from '../client/toast.ts';
import { defineForm, nameQuestion, phoneQuestion, SUBMITTING } from './definition.ts';
import { LIMITS, leadSchema, nameField, optionalChoice, phoneField, requiredChoice, requiredText } from './fields.ts';
import {
  INVESTMENT_LABELS,
  LAND_SIZE_LABELS,
  optionsOf,
  PARTNER_ROLE_LABELS,
  PARTNER_TIMELINE_LABELS,
  PROJECT_TYPE_LABELS,
  YES_NO_LABELS,
} from './labels.ts';
import {
  INVESTMENT_RANGES,
  LAND_SIZES,
  PARTNER_ROLES,
  PARTNER_STATES,
  PARTNER_TIMELINES,
  PROJECT_TYPES,
  YES_NO,
} from './options.ts';

/**
 * The highest score an application can reach and the score that approves it
 * (with both "si" answers), docs/product.md. The server's score, the panel's
 * percentage and badge use these; the migration's CHECK repeats the threshold
 * and a test holds the two together.
 */
export const PARTNER_SCORE_MAX = 13;
export const PARTNER_APPROVAL_THRESHOLD = 8;

/**
 * /prefiltro-socios, the partner evaluation. The five answers that decide the
 * score are required: the server cannot score a question left unanswered.
 * The browser never sends the score or the status; the server computes both.
 */
export const partnerApplicationSchema = leadSchema({
  name: nameField,
  phone: phoneField,
  role: requiredChoice(PARTNER_ROLES, 'Cuéntanos cuál es tu rol en el proyecto.'),
  project_type: optionalChoice(PROJECT_TYPES),
  state: optionalChoice(PARTNER_STATES),
  municipality: requiredText('Escribe el municipio del proyecto.', LIMITS.municipality),
  land_size: optionalChoice(LAND_SIZES),
  investment: requiredChoice(INVESTMENT_RANGES, 'Elige el rango de inversión.'),
  timeline: requiredChoice(PARTNER_TIMELINES, 'Elige cuándo quieres iniciar.'),
  legal_documentation: requiredChoice(YES_NO, 'Dinos si tu documentación legal está lista.'),
  consultancy_payment: requiredChoice(YES_NO, 'Dinos si estás de acuerdo con la consultoría de $899 MXN.'),
});

export type PartnerApplication = z.output<typeof partnerApplicationSchema>;

/** The screen that replaces the form with the server's verdict. */
export const PARTNER_VERDICTS = {
  approved: {
    title: '¡Felicitaciones!',
    text: 'Tu proyecto tiene el perfil que buscamos.',
    next: 'El siguiente paso es agendar tu sesión privada de 30 minutos, con acuerdo de confidencialidad mutuo, y pagar la consulta de $899 MXN. Es 100% acreditable si el proyecto avanza.',
    book: 'Agendar mi sesión',
    opening: 'Abriendo la agenda…',
    pay: 'Pagar consulta de $899 MXN',
    chat: 'Hablar por WhatsApp',
  },
  rejected: {
    title: 'Tu proyecto requiere más preparación',
    text: 'Priorizamos proyectos con documentación lista y presupuesto confirmado.',
    next: 'No es un no definitivo. Platica con un asesor: te ayudamos a reunir la documentación y a definir tu presupuesto para que tu proyecto esté listo.',
    chat: 'Hablar con un asesor',
  },
  home: 'Regresar al Inicio',
  /**
   * An application kept in the outbox (issue #25) is scored when it reaches
   * us, maybe on another page or another day: no verdict view shows it.
   */
  byWhatsApp: 'Un asesor te enviará el resultado de tu evaluación por WhatsApp.',
} as const;

const FAILURE = 'No se pudo guardar en este momento, intenta después.';
const MISSING: Toast = {
  title: 'Información incompleta',
  description: 'Por favor completa todos los campos requeridos.',
  variant: 'destructive',
};

const yesNo = optionsOf(YES_NO, YES_NO_LABELS);

export const partnerForm = defineForm({
  label: 'Evaluación de socios',
  eyebrow: 'Socios estratégicos',
  endpoint: '/api/partner-applications',
  schema: partnerApplicationSchema,
  numbered: true,
  sections: [
    {
      questions: [
        {
          kind: 'choice',
          name: 'role',
          label: '¿Cuál es tu rol en el proyecto?',
          options: optionsOf(PARTNER_ROLES, PARTNER_ROLE_LABELS),
          columns: 2,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'project_type',
          label: '¿Qué tipo de proyecto es?',
          options: optionsOf(PROJECT_TYPES, PROJECT_TYPE_LABELS),
          columns: 2,
        },
      ],
    },
    {
      title: '¿Dónde está el proyecto?',
      style: 'fieldset',
      columns: 2,
      questions: [
        {
          kind: 'select',
          name: 'state',
          label: 'Estado',
          options: PARTNER_STATES.map((state) => ({ value: state, label: state })),
          placeholder: 'Elige el estado',
        },
        { kind: 'text', name: 'municipality', label: 'Municipio' },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'land_size',
          label: '¿Qué superficie tiene el terreno?',
          options: optionsOf(LAND_SIZES, LAND_SIZE_LABELS),
          columns: 3,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'investment',
          label: '¿Cuál es el rango de inversión (MXN)?',
          options: optionsOf(INVESTMENT_RANGES, INVESTMENT_LABELS),
          columns: 2,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'timeline',
          label: '¿Cuándo quieres iniciar?',
          options: optionsOf(PARTNER_TIMELINES, PARTNER_TIMELINE_LABELS),
          columns: 2,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'legal_documentation',
          label: '¿Tu documentación legal del terreno está en regla?',
          options: yesNo,
          columns: 2,
          compact: true,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'consultancy_payment',
          label: '¿Estás de acuerdo con la consultoría de $899 MXN, acreditable si el proyecto avanza?',
          options: yesNo,
          columns: 2,
          compact: true,
        },
      ],
    },
    {
      title: '¿Cómo te contactamos?',
      style: 'card',
      columns: 2,
      questions: [nameQuestion(), phoneQuestion('Teléfono (WhatsApp)')],
    },
  ],
  submit: { label: 'Enviar evaluación', busyLabel: SUBMITTING },
  toasts: {
    missing: MISSING,
    failure: { title: 'Error al enviar solicitud', description: FAILURE },
    approved: { title: PARTNER_VERDICTS.approved.title, description: PARTNER_VERDICTS.approved.text },
    rejected: {
      title: PARTNER_VERDICTS.rejected.title,
      description: PARTNER_VERDICTS.rejected.text,
      variant: 'destructive',
    },
    delivered: {
      title: 'Solicitud enviada',
      description: `Recibimos la evaluación que tenías pendiente de envío. ${PARTNER_VERDICTS.byWhatsApp}`,
    },
  },
  messages: { invalid: 'Revisa los campos marcados para evaluar tu proyecto.', failure: FAILURE },
});
