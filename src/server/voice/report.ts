/**
 * The voice platform's server messages (Vapi, "Server URL"): the envelope
 * `{ message: { type, call, ... } }`, and what a call's `end-of-call-report`
 * holds, read into what we store. The essentials (the type, the call id) must
 * be right or the message is refused; every optional part that is missing or
 * not of the documented shape is left out, so one odd field never loses a call.
 * Formats: docs.vapi.ai/server-url/events and the `ServerMessageEndOfCallReport`
 * schema of the platform's OpenAPI (docs/decisions/0017-voice-calls.md).
 */
import { z } from 'zod';
import { withoutBidiControls } from '../../lib/bidi.ts';
import { normalizePhone } from '../../lib/forms/phone.ts';
import { type CallMetadata, type CallTurn, callMetadataSchema } from '../../lib/voice/calls.ts';
import { keptLandingPath } from '../leads/touch.ts';

const envelopeSchema = z.object({
  message: z.looseObject({ type: z.string().min(1).max(100) }),
});

/** Anything; what is not of the expected shape becomes undefined. */
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const text = (max: number) => optional(z.string().transform((value) => value.trim().slice(0, max)));
const isoDate = optional(z.iso.datetime({ offset: true }).transform((value) => new Date(value)));
const httpsUrl = optional(
  z
    .string()
    .max(2000)
    .refine((value) => {
      try {
        return new URL(value).protocol === 'https:';
      } catch {
        return false;
      }
    }),
);

const turnSchema = z.looseObject({
  role: z.string(),
  message: z.string().optional(),
  secondsFromStart: z.number().finite().nonnegative().optional().catch(undefined),
});

const reportSchema = z.looseObject({
  type: z.literal('end-of-call-report'),
  call: z.looseObject({
    id: z.string().trim().min(1).max(100),
    startedAt: isoDate,
    endedAt: isoDate,
    assistantOverrides: optional(z.looseObject({ metadata: optional(z.record(z.string(), z.unknown())) })),
  }),
  endedReason: text(200),
  startedAt: isoDate,
  endedAt: isoDate,
  durationSeconds: optional(z.number().finite().nonnegative()),
  durationMs: optional(z.number().finite().nonnegative()),
  cost: optional(z.number().finite().nonnegative().max(100_000)),
  summary: text(20_000),
  transcript: text(200_000),
  recordingUrl: httpsUrl,
  analysis: optional(
    z.looseObject({
      summary: text(20_000),
      structuredData: optional(z.record(z.string(), z.unknown())),
    }),
  ),
  artifact: optional(
    z.looseObject({
      transcript: text(200_000),
      messages: optional(z.array(z.unknown()).max(5000)),
      recordingUrl: httpsUrl,
      recording: optional(
        z.looseObject({
          stereoUrl: httpsUrl,
          mono: optional(z.looseObject({ combinedUrl: httpsUrl })),
        }),
      ),
      structuredOutputs: optional(z.record(z.string(), z.looseObject({ name: z.string(), result: z.unknown() }))),
    }),
  ),
  assistant: optional(z.looseObject({ metadata: optional(z.record(z.string(), z.unknown())) })),
});

/** A call as we store it. */
export interface CallReport {
  callId: string;
  startedAt: Date | null;
  endedAt: Date | null;
  durationSeconds: number | null;
  endedReason: string | null;
  summary: string | null;
  transcript: string | null;
  messages: CallTurn[];
  recordingUrl: string | null;
  structured: Record<string, unknown> | null;
  name: string | null;
  phone: string | null;
  email: string | null;
  interest: string | null;
  cost: number | null;
  metadata: CallMetadata;
}

export type ServerMessage =
  | { kind: 'report'; report: CallReport }
  | { kind: 'tools'; call: CallInfo; toolCalls: ToolCallRequest[] }
  | { kind: 'status'; call: CallInfo; status: string; endedReason: string | null }
  | { kind: 'ignored'; type: string }
  | { kind: 'invalid'; error: string };

/** The call a live message belongs to: its id, the caller's number on a phone call, the page and attribution of a web call. */
export interface CallInfo {
  callId: string;
  customerNumber: string | null;
  metadata: CallMetadata;
}

/** One tool call of a `tool-calls` message: its id, the tool's name and its arguments (parsed when sent as text). */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: unknown;
}

const INVALID_ENVELOPE = 'El mensaje no tiene el formato de la plataforma de voz ({"message": {"type": ...}}).';
const INVALID_REPORT = 'El reporte de fin de llamada no trae el identificador de la llamada.';

/**
 * Strings PostgreSQL can store: no NUL character, no lone surrogate (JSON
 * allows both, text and jsonb refuse them), and that the team reads as they
 * were said: no bidirectional controls (decision 0050). What lies deeper than
 * anything we read (the assistant's own configuration can nest) is left out.
 */
function storable(value: unknown, depth = 0): unknown {
  if (depth > 40) return undefined;
  if (typeof value === 'string') return withoutBidiControls(value.toWellFormed().replaceAll('\u0000', ''));
  if (Array.isArray(value)) return value.map((item) => storable(item, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [storable(key, depth + 1) as string, storable(item, depth + 1)]),
    );
  }
  return value;
}

/** Reads one server message: a report to store, a type we leave alone, or why it is refused. */
export function readServerMessage(raw: unknown): ServerMessage {
  const body = storable(raw);
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { kind: 'invalid', error: INVALID_ENVELOPE };
  const { type } = envelope.data.message;
  if (type === 'tool-calls' || type === 'status-update') return readLiveMessage(type, envelope.data.message);
  if (type !== 'end-of-call-report') return { kind: 'ignored', type };
  const parsed = reportSchema.safeParse(envelope.data.message);
  if (!parsed.success) return { kind: 'invalid', error: INVALID_REPORT };
  return { kind: 'report', report: toReport(parsed.data) };
}

const callSchema = z.looseObject({
  id: z.string().trim().min(1).max(100),
  customer: optional(z.looseObject({ number: optional(z.string().max(40)) })),
  assistantOverrides: optional(z.looseObject({ metadata: optional(z.record(z.string(), z.unknown())) })),
});

const liveSchema = z.looseObject({
  call: callSchema,
  customer: optional(z.looseObject({ number: optional(z.string().max(40)) })),
  assistant: optional(z.looseObject({ metadata: optional(z.record(z.string(), z.unknown())) })),
});

/** The platform's tool call: `{id, type: 'function', function: {name, arguments}}` (arguments an object, or its JSON text). */
const toolCallSchema = z.looseObject({
  id: z.string().trim().min(1).max(100),
  function: z.looseObject({ name: z.string().min(1).max(64), arguments: z.unknown().optional() }),
});
const toolCallsSchema = z.looseObject({ toolCallList: z.array(toolCallSchema).min(1).max(20) });
const statusSchema = z.looseObject({ status: z.string().min(1).max(40), endedReason: text(200) });

const INVALID_TOOL_CALLS = 'El mensaje tool-calls no trae la llamada o la lista de herramientas (toolCallList).';
const INVALID_STATUS = 'El mensaje status-update no trae la llamada o su estado.';

/**
 * A call's metadata as kept, field by field: one field that does not fit (a
 * click id with a space) is left out alone, never the page and the campaign
 * with it; the landing path keeps only the attribution's parameters.
 */
function callMetadata(raw: Record<string, unknown>): CallMetadata {
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(callMetadataSchema.shape)) {
    const parsed = field.safeParse(raw[key]);
    if (parsed.success && parsed.data !== undefined) kept[key] = parsed.data;
  }
  const landing = keptLandingPath(kept.landing_path as string | undefined);
  if (landing) kept.landing_path = landing;
  else delete kept.landing_path;
  return kept as CallMetadata;
}

/** The call a live message belongs to: its id, the caller's number (a phone call), the page and attribution. */
function callInfo(live: z.infer<typeof liveSchema>): CallInfo {
  const metadata = callMetadata({
    ...(live.assistant?.metadata ?? {}),
    ...(live.call.assistantOverrides?.metadata ?? {}),
  });
  const number = live.customer?.number ?? live.call.customer?.number;
  return {
    callId: live.call.id,
    customerNumber: number ? normalizePhone(number) : null,
    metadata,
  };
}

function argumentsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return {};
  }
}

/** A message of a call still running: the agent's tool calls, or the call's status. */
function readLiveMessage(type: 'tool-calls' | 'status-update', message: Record<string, unknown>): ServerMessage {
  const live = liveSchema.safeParse(message);
  if (type === 'tool-calls') {
    const tools = toolCallsSchema.safeParse(message);
    if (!live.success || !tools.success) return { kind: 'invalid', error: INVALID_TOOL_CALLS };
    return {
      kind: 'tools',
      call: callInfo(live.data),
      toolCalls: tools.data.toolCallList.map((call) => ({
        id: call.id,
        name: call.function.name,
        arguments: argumentsOf(call.function.arguments),
      })),
    };
  }
  const status = statusSchema.safeParse(message);
  if (!live.success || !status.success) return { kind: 'invalid', error: INVALID_STATUS };
  return {
    kind: 'status',
    call: callInfo(live.data),
    status: status.data.status,
    endedReason: status.data.endedReason || null,
  };
}

/** The keys the assistant's structured data may use for what we know how to store. */
const KNOWN_FIELDS = {
  name: ['name', 'nombre', 'fullName', 'nombre_completo'],
  phone: ['phone', 'telefono', 'teléfono', 'phoneNumber', 'celular', 'whatsapp'],
  email: ['email', 'correo', 'correo_electronico'],
  interest: ['interest', 'interes', 'interés', 'modelo', 'model'],
} as const;

function pick(data: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = data[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

function toReport(report: z.infer<typeof reportSchema>): CallReport {
  const artifact = report.artifact;
  // Structured outputs (the newer form) are merged under their names, under the older structuredData.
  const outputs = Object.fromEntries(
    Object.values(artifact?.structuredOutputs ?? {}).flatMap(({ name, result }) =>
      result !== null && typeof result === 'object' && !Array.isArray(result)
        ? Object.entries(result as Record<string, unknown>)
        : [[name, result]],
    ),
  );
  const structuredSource = { ...outputs, ...(report.analysis?.structuredData ?? {}) };
  const structured = Object.keys(structuredSource).length ? structuredSource : null;
  const fields = structured ?? {};
  const rawPhone = pick(fields, KNOWN_FIELDS.phone);
  const email = pick(fields, KNOWN_FIELDS.email)?.toLowerCase() ?? null;

  const startedAt = report.startedAt ?? report.call.startedAt ?? null;
  const endedAt = report.endedAt ?? report.call.endedAt ?? null;
  const duration =
    report.durationSeconds ??
    (report.durationMs !== undefined ? report.durationMs / 1000 : undefined) ??
    (startedAt && endedAt && endedAt >= startedAt ? (endedAt.getTime() - startedAt.getTime()) / 1000 : null);

  const metadata = callMetadata({
    ...(report.assistant?.metadata ?? {}),
    ...(report.call.assistantOverrides?.metadata ?? {}),
  });

  return {
    callId: report.call.id,
    startedAt,
    endedAt,
    durationSeconds: duration === null ? null : Math.min(Math.round(duration * 10) / 10, 999_999_999),
    endedReason: report.endedReason || null,
    summary: report.analysis?.summary || report.summary || null,
    transcript: artifact?.transcript || report.transcript || null,
    messages: turns(artifact?.messages ?? []),
    recordingUrl:
      artifact?.recording?.mono?.combinedUrl ??
      artifact?.recordingUrl ??
      report.recordingUrl ??
      artifact?.recording?.stereoUrl ??
      null,
    structured: structured && JSON.stringify(structured).length <= 20_000 ? structured : null,
    name: pick(fields, KNOWN_FIELDS.name)?.slice(0, 120) ?? null,
    phone: rawPhone ? normalizePhone(rawPhone) : null,
    email: email && email.length <= 254 && z.email().safeParse(email).success ? email : null,
    interest: pick(fields, KNOWN_FIELDS.interest)?.slice(0, 500) ?? null,
    cost: report.cost ?? null,
    metadata,
  };
}

/** The spoken turns, in the team's words; system prompts and tool calls are left out. */
function turns(messages: unknown[]): CallTurn[] {
  const result: CallTurn[] = [];
  for (const entry of messages) {
    const turn = turnSchema.safeParse(entry);
    if (!turn.success || !turn.data.message?.trim()) continue;
    const role = turn.data.role;
    const speaker = role === 'user' ? 'visitante' : role === 'bot' || role === 'assistant' ? 'agente' : null;
    if (!speaker) continue;
    result.push({
      role: speaker,
      text: turn.data.message.trim().slice(0, 5000),
      seconds: turn.data.secondsFromStart ?? null,
    });
  }
  return result;
}
