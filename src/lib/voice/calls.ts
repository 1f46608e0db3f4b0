/**
 * Voice calls (issue #13), shared by the widget, the panel and the functions:
 * what the widget passes to a call as metadata, what the panel shows of a
 * stored call, and the Spanish words for the platform's end reasons.
 * Browser-safe: no server import.
 */
import * as z from 'zod/mini';

/** The kind of lead a call is, where notifications and exports name it. */
export const CALL_KIND = 'voice-calls';

/**
 * What the widget sends with `vapi.start(assistantId, { metadata })`: the
 * page the call started on and the visit's attribution. The platform hands
 * it back in its server messages as `assistant.metadata`.
 */
export const callMetadataSchema = z.object({
  page: z.optional(z.string().check(z.maxLength(2000))),
  utm_source: z.optional(z.string().check(z.maxLength(200))),
  utm_medium: z.optional(z.string().check(z.maxLength(200))),
  utm_campaign: z.optional(z.string().check(z.maxLength(200))),
  utm_term: z.optional(z.string().check(z.maxLength(200))),
  utm_content: z.optional(z.string().check(z.maxLength(200))),
  referrer: z.optional(z.string().check(z.maxLength(2000))),
  landing_path: z.optional(z.string().check(z.maxLength(2000))),
  // The ad platforms' click ids (issue #43).
  gclid: z.optional(z.string().check(z.regex(/^[!-~]{1,500}$/))),
  gbraid: z.optional(z.string().check(z.regex(/^[!-~]{1,500}$/))),
  wbraid: z.optional(z.string().check(z.regex(/^[!-~]{1,500}$/))),
  fbc: z.optional(z.string().check(z.regex(/^[!-~]{1,500}$/))),
});
export type CallMetadata = z.infer<typeof callMetadataSchema>;

export type Speaker = 'agente' | 'visitante';
export const SPEAKER_LABELS: Record<Speaker, string> = { agente: 'Agente', visitante: 'Visitante' };

/** One turn of the conversation. */
export interface CallTurn {
  role: Speaker;
  text: string;
  /** Seconds from the start of the call, when the platform said. */
  seconds: number | null;
}

/** A call in the panel's list. */
export interface CallSummary {
  id: string;
  callId: string;
  at: string;
  startedAt: string | null;
  durationSeconds: number | null;
  endedReason: string | null;
  summary: string | null;
  name: string | null;
  phone: string | null;
  contactId: string | null;
  contactName: string | null;
  /** Still running: its report has not arrived and the platform has not said it ended (issue #42). */
  inProgress: boolean;
}

export interface CallDetail extends CallSummary {
  endedAt: string | null;
  email: string | null;
  interest: string | null;
  transcript: string | null;
  messages: CallTurn[];
  /** https only: a link the panel can show. */
  recordingUrl: string | null;
  structured: Record<string, unknown> | null;
  page: string | null;
  attribution: Record<string, string>;
  cost: number | null;
}

export interface CallsPage {
  items: CallSummary[];
  nextCursor: string | null;
}

/** The platform's most frequent end reasons, in the team's words; others are shown as they come. */
const ENDED_REASONS: Record<string, string> = {
  'customer-ended-call': 'El visitante colgó',
  'assistant-ended-call': 'El agente terminó la llamada',
  'assistant-said-end-call-phrase': 'El agente se despidió',
  'assistant-ended-call-after-message-spoken': 'El agente terminó la llamada',
  'silence-timed-out': 'Silencio prolongado',
  'exceeded-max-duration': 'Se alcanzó la duración máxima',
  'customer-did-not-give-microphone-permission': 'Sin permiso de micrófono',
  'customer-did-not-answer': 'Sin respuesta',
  'assistant-forwarded-call': 'Transferida',
  'assistant-error': 'Error del agente',
  'pipeline-error': 'Error de la plataforma',
  'call-start-error-neither-assistant-nor-server-set': 'Error al iniciar',
  'manually-canceled': 'Cancelada',
};

/** How a call ended, in words; "En curso" while it runs. */
export function callEndWords(call: { endedReason: string | null; inProgress?: boolean }): string {
  return call.inProgress ? 'En curso' : endedReasonLabel(call.endedReason);
}

export function endedReasonLabel(reason: string | null): string {
  if (!reason) return 'Sin dato';
  return ENDED_REASONS[reason] ?? (reason.includes('error') ? `Error (${reason})` : `Otro (${reason})`);
}

/** 95 -> "1 min 35 s"; null -> "—". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return minutes ? `${minutes} min ${rest} s` : `${rest} s`;
}

/** The agent's tools as the contact's history names them (issue #42; src/server/voice/tool-args.ts). */
export const VOICE_TOOL_LABELS: Record<string, string> = {
  buscar_modelos: 'buscó modelos en el catálogo',
  horarios_disponibles: 'consultó horarios libres',
  agendar_visita: 'agendar una cita',
  guardar_prospecto: 'guardó los datos de contacto',
  enviar_whatsapp: 'envío de modelos por WhatsApp',
};

/** A call's status in the history: "Llamada con el agente de voz en curso". */
export function callStatusWords(status: string | null): string {
  if (status === 'in-progress') return 'Llamada con el agente de voz en curso';
  if (status === 'ended') return 'Llamada con el agente de voz terminada';
  return `Llamada con el agente de voz: ${status ?? 'sin estado'}`;
}
