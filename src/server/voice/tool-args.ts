/**
 * The voice agent's tools (issue #42, decision 0071): their names, what the
 * agent is told each does, and the arguments it must send, as one zod
 * definition each. The assistant's definition (assistant.ts) publishes their
 * JSON Schema (z.toJSONSchema) to the platform, and the endpoint checks what
 * arrives against the same schema, so the agent is never asked for one thing
 * and checked for another. The kinds and places are the data's
 * (src/data/appointments.json): a new kind reaches the agent at the next
 * publish.
 */
import { z } from 'zod';
import { APPOINTMENTS } from '../../data/appointments.ts';
import { CATALOGUE_MODELS } from '../../lib/admin/catalogue.ts';
import { withoutBidiControls } from '../../lib/bidi.ts';
import { LIMITS } from '../../lib/forms/fields.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const kindIds = APPOINTMENTS.kinds.map((kind) => kind.id) as [string, ...string[]];
const placeIds = APPOINTMENTS.places.map((place) => place.id) as [string, ...string[]];
const modelIds = CATALOGUE_MODELS.map((model) => model.id) as [string, ...string[]];

const kindField = z
  .enum(kindIds, { error: `Falta el tipo de cita (uno de: ${kindIds.join(', ')}).` })
  .describe(`El tipo de cita: ${APPOINTMENTS.kinds.map((kind) => `${kind.id} (${kind.name})`).join('; ')}`);
const placeField = z
  .enum(placeIds, { error: `Falta el lugar (uno de: ${placeIds.join(', ')}).` })
  .describe(`El lugar: ${APPOINTMENTS.places.map((place) => `${place.id} (${place.name})`).join('; ')}`);
/** What the agent heard, kept as a form keeps it: one line, no control or bidirectional characters. */
const heard = (value: string) =>
  withoutBidiControls(value)
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();

const nameField = z
  .string({ error: 'Falta el nombre de la persona.' })
  .overwrite(heard)
  .min(2, 'Falta el nombre de la persona.')
  .max(LIMITS.name, 'El nombre es demasiado largo.')
  .describe('Nombre y apellido de la persona, como lo dijo');
const phoneField = z
  .string({ error: 'Falta el número de WhatsApp.' })
  .overwrite(heard)
  .min(8, 'Falta el número de WhatsApp.')
  .max(LIMITS.phoneInput, 'El número de WhatsApp es demasiado largo.')
  .describe('Su número de WhatsApp, con los 10 dígitos (y la clave del país si no es de México)');
const emailField = z.email('El correo no parece válido.').max(LIMITS.email).describe('Su correo, si lo dio');

/** Each tool: what the agent reads about it, and its arguments. */
export const VOICE_TOOLS = {
  buscar_modelos: {
    description:
      'Busca en el catálogo los modelos que encajan con el presupuesto, las personas, los niveles y si la persona ya tiene terreno. Úsala antes de recomendar un modelo.',
    parameters: z.object({
      presupuesto_mxn: z
        .number()
        .int()
        .positive()
        .max(1_000_000_000)
        .optional()
        .describe('Lo más que quiere invertir, en pesos mexicanos (por ejemplo 450000)'),
      personas: z.number().int().min(1).max(30).optional().describe('Cuántas personas vivirán en la casa'),
      niveles: z.number().int().min(1).max(3).optional().describe('Cuántos niveles (plantas) quiere'),
      tiene_terreno: z.boolean().optional().describe('Si ya tiene terreno'),
    }),
  },
  horarios_disponibles: {
    description:
      'Da los próximos horarios libres para un tipo de cita en un lugar, desde una fecha. Úsala antes de agendar.',
    parameters: z.object({
      tipo: kindField,
      lugar: placeField.optional(),
      desde: z
        .string()
        .regex(DATE, 'La fecha va como AAAA-MM-DD.')
        .optional()
        .describe('Desde qué día buscar, AAAA-MM-DD (si no, desde hoy)'),
    }),
  },
  agendar_visita: {
    description:
      'Agenda la cita en un horario libre que dio horarios_disponibles, para la persona de la llamada. Confirma el día y la hora con la persona antes de usarla.',
    parameters: z.object({
      tipo: kindField,
      lugar: placeField,
      fecha: z
        .string({ error: 'Falta la fecha (AAAA-MM-DD).' })
        .regex(DATE, 'La fecha va como AAAA-MM-DD.')
        .describe('El día de la cita, AAAA-MM-DD, como lo dio horarios_disponibles'),
      hora: z
        .string({ error: 'Falta la hora (HH:MM).' })
        .regex(TIME, 'La hora va como HH:MM, de 24 horas.')
        .describe('La hora de inicio en el reloj del lugar, HH:MM de 24 horas'),
      nombre: nameField.optional(),
      telefono: phoneField.optional(),
      correo: emailField.optional(),
    }),
  },
  guardar_prospecto: {
    description:
      'Guarda a la persona como prospecto en cuanto te dé su nombre y su WhatsApp, para que un asesor le dé seguimiento aunque se corte la llamada.',
    parameters: z.object({
      nombre: nameField,
      telefono: phoneField,
      interes: z
        .string()
        .overwrite(heard)
        .max(500)
        .optional()
        .describe('Qué busca, en pocas palabras (modelo, uso, plazo)'),
      correo: emailField.optional(),
    }),
  },
  enviar_whatsapp: {
    description:
      'Envía por WhatsApp, al número que la persona dio, los modelos que platicaron. Solo si la persona lo acepta y después de guardar_prospecto.',
    parameters: z.object({
      modelos: z
        .array(z.enum(modelIds))
        .min(1, 'Di al menos un modelo.')
        .max(5)
        .describe(`Los modelos a enviar: ${CATALOGUE_MODELS.map((model) => model.id).join(', ')}`),
    }),
  },
} as const;

export type VoiceToolName = keyof typeof VOICE_TOOLS;
export type VoiceToolArgs<N extends VoiceToolName> = z.output<(typeof VOICE_TOOLS)[N]['parameters']>;

export const isVoiceTool = (name: string): name is VoiceToolName => Object.hasOwn(VOICE_TOOLS, name);

/** A tool's arguments as JSON Schema, for the platform (the shape OpenAI's function calling reads). */
export function toolParameters(name: VoiceToolName): Record<string, unknown> {
  const schema = z.toJSONSchema(VOICE_TOOLS[name].parameters, { io: 'input' }) as Record<string, unknown>;
  const { $schema: _, ...rest } = schema;
  return rest;
}

/**
 * What the platform extracts from the whole call once it ends
 * (`analysisPlan.structuredDataPlan`, read back as `analysis.structuredData`
 * by report.ts): the person as guardar_prospecto stores them, every field
 * optional. A call whose agent never stored them (it forgot, or our server
 * failed then) still joins its contact from the report.
 */
export function reportDataSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(VOICE_TOOLS.guardar_prospecto.parameters.partial(), { io: 'input' }) as Record<
    string,
    unknown
  >;
  const { $schema: _, ...rest } = schema;
  return rest;
}
