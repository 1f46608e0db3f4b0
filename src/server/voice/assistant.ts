import { createHash } from 'node:crypto';
import { z } from 'zod';
import appointmentsJson from '../../data/appointments.json' with { type: 'json' };
import { catalogueValues, fillCatalogueTokens, fillDeep, formatMxn } from '../../data/catalogue.ts';
import landingJson from '../../data/landing.json' with { type: 'json' };
import modelsJson from '../../data/models.json' with { type: 'json' };
import { parseData } from '../../data/problems.ts';
import {
  appointmentsSchema,
  landingSchema,
  modelSchema,
  sellingPointSchema,
  siteSchema,
  voiceAgentSchema,
} from '../../data/schemas.ts';
import sellingPointsJson from '../../data/selling-points.json' with { type: 'json' };
import siteJson from '../../data/site.json' with { type: 'json' };
import voiceAgentJson from '../../data/voice-agent.json' with { type: 'json' };
import { clockName } from '../../lib/appointments/clock.ts';
import { reportDataSchema, toolParameters, VOICE_TOOLS, type VoiceToolName } from './tool-args.ts';

/**
 * The voice agent as code (issue #42, decision 0071): the assistant the
 * platform (Vapi) runs, built from the repository. Its manner and greeting
 * are marketing's (src/data/voice-agent.json, in the content editor); every
 * fact it may state (models, sizes, prices, delivery, guarantee, how one
 * buys, offices, the kinds of appointment and where and when they happen)
 * is written here from the same data files the pages are built from, so a
 * price changed in the editor is the agent's at the next publish
 * (`npm run voice:publish`, which the deploy runs). The tools are
 * tool-args.ts's, served by /api/voice/events with the credential that
 * sends VAPI_WEBHOOK_SECRET. The definition carries its own fingerprint
 * (`metadata.definition`): the launch check compares the published one.
 */

/** The data files the assistant is made of, by their file names in src/data. */
export const ASSISTANT_FILES = {
  'models.json': z.object({ models: z.array(modelSchema) }),
  'site.json': siteSchema,
  'landing.json': landingSchema,
  'selling-points.json': z.object({ points: z.array(sellingPointSchema) }),
  'appointments.json': appointmentsSchema,
  'voice-agent.json': voiceAgentSchema,
} as const;
export type AssistantFile = keyof typeof ASSISTANT_FILES;
export type AssistantData = { [F in AssistantFile]: z.output<(typeof ASSISTANT_FILES)[F]> };

/** The files as read (JSON values), each checked against its schema: a Spanish error names the first problem. */
export function assistantData(files: Record<AssistantFile, unknown>): AssistantData {
  return Object.fromEntries(
    (Object.keys(ASSISTANT_FILES) as AssistantFile[]).map((file) => [
      file,
      parseData(ASSISTANT_FILES[file], files[file], `src/data/${file}`),
    ]),
  ) as AssistantData;
}

/** The repository's data files, as this build has them. */
export const REPOSITORY_FILES: Record<AssistantFile, unknown> = {
  'models.json': modelsJson,
  'site.json': siteJson,
  'landing.json': landingJson,
  'selling-points.json': sellingPointsJson,
  'appointments.json': appointmentsJson,
  'voice-agent.json': voiceAgentJson,
};

export interface AssistantSettings {
  /** The public site (SITE_URL): the server URL is its /api/voice/events. */
  siteUrl: string;
  /** The platform's credential that sends VAPI_WEBHOOK_SECRET (VAPI_CREDENTIAL_ID); null: none referenced. */
  credentialId: string | null;
}

/** The model that speaks for the agent, and how freely. */
const LANGUAGE_MODEL = { provider: 'openai', model: 'gpt-4.1', temperature: 0.3 } as const;
/** Spanish speech to text. */
const TRANSCRIBER = { provider: 'deepgram', model: 'nova-3', language: 'es' } as const;
/** The platform waits this long for a tool's answer (its default is 20 s; ours answer in well under one). */
const TOOL_TIMEOUT_SECONDS = 10;
/** After this long without a tool's answer, the agent says it is still on it. */
const DELAYED_AFTER_MS = 1500;

/** What the agent says while a slower tool works, when it is late, and when it failed. */
const TOOL_MESSAGES: Record<VoiceToolName, { start?: string }> = {
  buscar_modelos: {},
  horarios_disponibles: { start: 'Déjame revisar la agenda.' },
  agendar_visita: { start: 'Perfecto, la agendo.' },
  guardar_prospecto: {},
  enviar_whatsapp: { start: 'Te lo envío.' },
};

const list = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');

const DAY_NAMES: Record<string, string> = {
  lunes: 'lunes',
  martes: 'martes',
  miercoles: 'miércoles',
  jueves: 'jueves',
  viernes: 'viernes',
  sabado: 'sábado',
  domingo: 'domingo',
};

/** Every fact the agent may state, in plain lines, from the data files. */
export function businessFacts(data: AssistantData): string {
  const site = data['site.json'];
  const appointments = data['appointments.json'];
  const models = [...data['models.json'].models].sort((a, b) => a.order - b.order);
  const catalogue = catalogueValues(models, site.startingPrice);
  const fill = (text: string) => fillCatalogueTokens(text, catalogue);
  const landing = fillDeep(data['landing.json'], catalogue);
  const modelLines = models.map(
    (model) =>
      `${model.name}: ${model.sizeM2} m², para ${model.capacity} personas, ${model.levels === 1 ? 'un nivel' : `${model.levels} niveles`}, desde ${formatMxn(model.priceFromMxn)}, entrega en ${model.delivery.replace('-', ' a ')}. ${model.description}`,
  );
  const points = [...data['selling-points.json'].points]
    .sort((a, b) => a.order - b.order)
    .map((point) => `${fill(point.title)}: ${fill(point.text)}`);
  const factory = landing.method.facts.map((fact) => `${fact.value} ${fact.label}`);
  const offices = site.offices.map((office) => `${office.city} (${office.region}, ${office.country}): ${office.role}`);
  const kinds = appointments.kinds.map((kind) => {
    const places = kind.places.map((id) => appointments.places.find((place) => place.id === id)?.name ?? id);
    const price = kind.priceMxn === null ? 'sin costo' : `${formatMxn(kind.priceMxn)}, se paga en línea al agendar`;
    return `${kind.name} (${kind.durationMinutes} min, ${price}; en ${places.join(', ')}): ${kind.description}`;
  });
  const places = appointments.places.map((place) => {
    const hours = place.hours.map((day) => `${DAY_NAMES[day.day] ?? day.day} ${day.opens} a ${day.closes}`).join(', ');
    return `${place.name} (hora de ${clockName(place.timeZone)}): ${hours}. ${place.address}`;
  });
  return [
    `Empresa: ${site.brand.name}. ${site.brand.tagline}.`,
    `Modelos (precios «desde», en pesos mexicanos):\n${list(modelLines)}`,
    `Precio de entrada: desde ${formatMxn(site.startingPrice.amountMxn)} (${site.startingPrice.refersTo}).`,
    `Lo que nos distingue:\n${list(points)}`,
    `Cifras: ${factory.join('; ')}.`,
    `Cómo se compra: ${landing.cycle.subtitle}`,
    `Oficinas:\n${list(offices)}`,
    `Citas que puedes agendar:\n${list(kinds)}`,
    `Lugares y horarios de atención:\n${list(places)}`,
    `Teléfono: ${site.phone.display}. WhatsApp: el mismo número.`,
  ].join('\n\n');
}

/** The system prompt: marketing's manner, then the facts, then the clock. */
export function systemPrompt(data: AssistantData): string {
  return [
    `Eres el agente de voz de ${data['site.json'].brand.name}. Atiendes llamadas desde el sitio web.`,
    list(data['voice-agent.json'].manner),
    // The page the call started on ({{pagina}}, the widget's variableValues): the agent speaks of what was being read.
    'La llamada empezó en la página «{{pagina}}» del sitio. Si es /prefiltro-socios, o la persona habla de invertir, de un desarrollo o de un terreno para un proyecto, habla de la sociedad y ofrece la Sesión de socios; si no, habla de los modelos y ofrece la visita a la casa muestra o la asesoría personalizada.',
    'DATOS DEL NEGOCIO (lo único que puedes afirmar; si algo no está aquí, no lo sabes):',
    businessFacts(data),
    'La fecha y hora de ahora, en UTC: {{now}}. Mérida está en UTC-6 todo el año.',
  ].join('\n\n');
}

function tool(name: VoiceToolName, server: Record<string, unknown>) {
  const { start } = TOOL_MESSAGES[name];
  return {
    type: 'function',
    async: false,
    function: { name, description: VOICE_TOOLS[name].description, parameters: toolParameters(name) },
    server,
    messages: [
      ...(start ? [{ type: 'request-start', content: start, blocking: false }] : []),
      {
        type: 'request-response-delayed',
        timingMilliseconds: DELAYED_AFTER_MS,
        content: 'Sigo en eso, dame un segundo.',
      },
      {
        type: 'request-failed',
        content: 'Perdón, no pude completarlo en este momento. Un asesor te escribirá por WhatsApp para ayudarte.',
      },
    ],
  };
}

/** The platform's retries of a message our server did not take: 2, 4, 8, 16 and 32 s after each failure. */
const SERVER_BACKOFF = { type: 'exponential', maxRetries: 5, baseDelaySeconds: 2 } as const;

/** The assistant without its fingerprint. */
function definitionBody(settings: AssistantSettings, data: AssistantData) {
  const agent = data['voice-agent.json'];
  const server = {
    url: `${settings.siteUrl.replace(/\/+$/, '')}/api/voice/events`,
    ...(settings.credentialId ? { credentialId: settings.credentialId } : {}),
    timeoutSeconds: TOOL_TIMEOUT_SECONDS,
    // A message our server could not take (a 503 while the database is away) is sent again: without a plan the
    // platform sends it once, and an end-of-call report lost that way lost the call's summary and recording.
    // Every message is safe to send again (a tool call runs once per toolCallId, a report is stored once per call).
    backoffPlan: SERVER_BACKOFF,
  };
  return {
    name: agent.name,
    firstMessage: agent.firstMessage,
    firstMessageMode: 'assistant-speaks-first',
    endCallMessage: agent.endCallMessage,
    maxDurationSeconds: agent.maxDurationMinutes * 60,
    transcriber: TRANSCRIBER,
    voice: agent.voice,
    model: {
      ...LANGUAGE_MODEL,
      messages: [{ role: 'system', content: systemPrompt(data) }],
      tools: (Object.keys(VOICE_TOOLS) as VoiceToolName[]).map((name) => tool(name, server)),
    },
    server,
    serverMessages: ['tool-calls', 'status-update', 'end-of-call-report'],
    // The person, extracted from the whole call for its report (without it the platform sends none).
    analysisPlan: { structuredDataPlan: { enabled: true, schema: reportDataSchema() } },
  };
}

export type AssistantDefinition = ReturnType<typeof definitionBody> & {
  metadata: { definition: string; source: string };
};

/** The fingerprint of a definition: what the launch check compares with the published one. */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 16);
}

/** The assistant to publish (POST /assistant or PATCH /assistant/{id}), with its fingerprint. */
export function assistantDefinition(
  settings: AssistantSettings,
  data: AssistantData = assistantData(REPOSITORY_FILES),
): AssistantDefinition {
  const body = definitionBody(settings, data);
  return { ...body, metadata: { definition: fingerprintOf(body), source: 'repositorio (npm run voice:publish)' } };
}
