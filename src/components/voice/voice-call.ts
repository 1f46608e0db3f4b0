import type { Toast } from '../../lib/client/toast.ts';
import type { CallMetadata } from '../../lib/voice/calls.ts';

/** The parts of @vapi-ai/web's client the widget uses (a fake in tests). */
export interface VoiceClient {
  on(event: 'call-start' | 'call-end' | 'speech-start' | 'speech-end', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  /** The SDK's client messages; `transcript` ones are the live captions. */
  on(event: 'message', listener: (message: unknown) => void): unknown;
  /** The microphone's level, 0 to 1, while connected. */
  on(event: 'local-volume-level', listener: (level: number) => void): unknown;
  /**
   * The metadata reaches the server messages as `assistant.metadata`; the
   * variable values fill the assistant's `{{pagina}}` (the page the call
   * started on: the agent speaks of what the visitor was reading).
   */
  start(
    assistantId: string,
    overrides?: { metadata: CallMetadata; variableValues: { pagina: string } },
  ): Promise<unknown>;
  stop(): Promise<void> | void;
  setMuted(mute: boolean): void;
}

export type VoiceState = 'idle' | 'connecting' | 'connected';

/** One line of the live captions: who speaks, what was heard so far, and whether it is settled. */
export interface Caption {
  role: 'agente' | 'visitante';
  text: string;
  final: boolean;
}

export interface VoiceSnapshot {
  state: VoiceState;
  /** The agent is talking. */
  speaking: boolean;
  /** The visitor's microphone is off for the agent. */
  muted: boolean;
  /** The microphone's level, 0 to 1. */
  level: number;
  /** The last lines of the conversation, oldest first. */
  captions: Caption[];
}

/** How many caption lines are kept on screen. */
export const CAPTION_LINES = 3;

export const IDLE: VoiceSnapshot = { state: 'idle', speaking: false, muted: false, level: 0, captions: [] };

interface Options {
  assistantId: string;
  /** Loads the SDK and creates the one client of the page; called on the first press only. */
  createClient(): Promise<VoiceClient>;
  notify(toast: Toast): void;
  onChange(snapshot: VoiceSnapshot): void;
  /** The page and the visit's attribution, read when a call starts. */
  metadata(): CallMetadata;
  /**
   * Whether the visitor agreed to an automated, recorded call on this device:
   * asked before the first call; false keeps the widget idle.
   */
  consent(): Promise<boolean>;
}

/** The voice widget's toasts (docs/product.md §12.5). */
export const VOICE_TOASTS = {
  connected: { title: 'Conectado', description: 'El agente de voz está listo para hablar contigo' },
  ended: { title: 'Llamada finalizada', description: 'La conversación ha terminado' },
  callError: { title: 'Error', description: 'No se pudo conectar con el agente de voz', variant: 'destructive' },
  startFailed: { title: 'Error', description: 'No se pudo iniciar la llamada. Por favor, intenta de nuevo.' },
  microphone: {
    title: 'Micrófono bloqueado',
    description:
      'Para hablar con el agente, permite el uso del micrófono: toca el candado junto a la dirección del sitio, activa «Micrófono» y vuelve a intentarlo.',
    variant: 'destructive',
  },
} as const satisfies Record<string, Toast>;

/** The words of an error and of the errors it wraps (the SDK nests them a few levels deep). */
function errorWords(error: unknown, depth = 0): string {
  if (error === null || typeof error !== 'object' || depth > 3) return String(error ?? '');
  const record = error as Record<string, unknown>;
  const own = ['name', 'message', 'type', 'errorMsg', 'msg']
    .map((key) => record[key])
    .filter((v) => typeof v === 'string');
  const nested = Object.values(record).filter((value) => typeof value === 'object' && value !== null);
  return [...own, ...nested.map((value) => errorWords(value, depth + 1))].join(' ');
}

function isPermissionError(error: unknown): boolean {
  return /NotAllowedError|permission|not-allowed/i.test(errorWords(error));
}

/**
 * idle -> connecting -> connected (on the SDK's call-start) -> idle (call end
 * or error), with "speaking" while the agent talks. Pressing while connecting
 * cancels; pressing while connected hangs up.
 */
export class VoiceCall {
  private snapshot: VoiceSnapshot = IDLE;
  private client: VoiceClient | undefined;
  /** Counts start attempts, so a cancelled attempt's late answer is ignored. */
  private attempt = 0;

  private readonly options: Options;

  constructor(options: Options) {
    this.options = options;
  }

  get current(): VoiceSnapshot {
    return this.snapshot;
  }

  async press(): Promise<void> {
    if (this.snapshot.state === 'idle') return this.start();
    await this.end();
  }

  /** Leaving the page ends the call. */
  dispose(): void {
    if (this.snapshot.state !== 'idle') void this.client?.stop();
    this.attempt++;
    this.set(IDLE);
  }

  /** Turns the visitor's microphone off or on for the agent (while connected). */
  toggleMute(): void {
    if (this.snapshot.state !== 'connected' || !this.client) return;
    const muted = !this.snapshot.muted;
    this.client.setMuted(muted);
    this.set({ ...this.snapshot, muted, level: muted ? 0 : this.snapshot.level });
  }

  private async start(): Promise<void> {
    const attempt = ++this.attempt;
    if (!(await this.options.consent()) || attempt !== this.attempt) return;
    this.set({ ...IDLE, state: 'connecting' });
    let answer: unknown;
    try {
      this.client ??= await this.connectClient();
      if (attempt !== this.attempt) return;
      const metadata = this.options.metadata();
      answer = await this.client.start(this.options.assistantId, {
        metadata,
        variableValues: { pagina: metadata.page ?? '/' },
      });
    } catch (error) {
      answer = null;
      if (attempt === this.attempt && isPermissionError(error)) return this.fail(VOICE_TOASTS.microphone);
    }
    // start() resolves null when the call could not be created (an `error` may have said why already).
    if (attempt === this.attempt && answer == null && this.snapshot.state === 'connecting') {
      this.fail(VOICE_TOASTS.startFailed);
    }
  }

  private async end(): Promise<void> {
    const wasConnecting = this.snapshot.state === 'connecting';
    this.attempt++;
    this.set(IDLE);
    await this.client?.stop();
    if (!wasConnecting) this.options.notify(VOICE_TOASTS.ended);
  }

  private async connectClient(): Promise<VoiceClient> {
    const client = await this.options.createClient();
    // The error listener is registered before the first start(): without one the SDK never resets.
    client.on('error', (error) => {
      if (this.snapshot.state === 'idle') return;
      if (isPermissionError(error)) return this.fail(VOICE_TOASTS.microphone);
      this.fail(this.snapshot.state === 'connected' ? VOICE_TOASTS.callError : VOICE_TOASTS.startFailed);
    });
    client.on('call-start', () => {
      if (this.snapshot.state !== 'connecting') return;
      this.set({ ...IDLE, state: 'connected' });
      this.options.notify(VOICE_TOASTS.connected);
    });
    client.on('call-end', () => {
      if (this.snapshot.state === 'idle') return;
      const wasConnected = this.snapshot.state === 'connected';
      this.set(IDLE);
      if (wasConnected) this.options.notify(VOICE_TOASTS.ended);
    });
    client.on(
      'speech-start',
      () => this.snapshot.state === 'connected' && this.set({ ...this.snapshot, speaking: true }),
    );
    client.on(
      'speech-end',
      () => this.snapshot.state === 'connected' && this.set({ ...this.snapshot, speaking: false }),
    );
    client.on('message', (message) => {
      const caption = captionOf(message);
      if (caption && this.snapshot.state === 'connected') {
        this.set({ ...this.snapshot, captions: withCaption(this.snapshot.captions, caption) });
      }
    });
    client.on('local-volume-level', (level) => {
      if (this.snapshot.state !== 'connected' || this.snapshot.muted || !Number.isFinite(level)) return;
      const rounded = Math.round(Math.min(Math.max(level, 0), 1) * 10) / 10;
      if (rounded !== this.snapshot.level) this.set({ ...this.snapshot, level: rounded });
    });
    return client;
  }

  private fail(toast: (typeof VOICE_TOASTS)[keyof typeof VOICE_TOASTS]): void {
    this.attempt++;
    this.set(IDLE);
    void this.client?.stop();
    this.options.notify(toast);
  }

  private set(snapshot: VoiceSnapshot): void {
    this.snapshot = snapshot;
    this.options.onChange(snapshot);
  }
}

/** A caption from one of the SDK's `transcript` messages ({type, role, transcriptType, transcript}), or null. */
export function captionOf(message: unknown): Caption | null {
  if (message === null || typeof message !== 'object') return null;
  const { type, role, transcriptType, transcript } = message as Record<string, unknown>;
  if (type !== 'transcript' || typeof transcript !== 'string' || !transcript.trim()) return null;
  if (role !== 'assistant' && role !== 'user') return null;
  return {
    role: role === 'assistant' ? 'agente' : 'visitante',
    text: transcript.trim(),
    final: transcriptType === 'final',
  };
}

/**
 * The captions with one more piece: a partial transcript replaces the
 * speaker's unsettled line (the words grow as they are heard), a final one
 * settles it; only the last CAPTION_LINES lines stay.
 */
export function withCaption(captions: readonly Caption[], caption: Caption): Caption[] {
  const open = captions.findLastIndex((line) => line.role === caption.role && !line.final);
  const next = open === -1 ? [...captions, caption] : captions.map((line, index) => (index === open ? caption : line));
  return next.slice(-CAPTION_LINES);
}
