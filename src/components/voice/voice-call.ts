import type { Toast } from '../../lib/client/toast.ts';

/** The parts of @vapi-ai/web's client the widget uses (a fake in tests). */
export interface VoiceClient {
  on(event: 'call-start' | 'call-end' | 'speech-start' | 'speech-end', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  start(assistantId: string): Promise<unknown>;
  stop(): Promise<void> | void;
}

export type VoiceState = 'idle' | 'connecting' | 'connected';

export interface VoiceSnapshot {
  state: VoiceState;
  /** The agent is talking. */
  speaking: boolean;
}

interface Options {
  assistantId: string;
  /** Loads the SDK and creates the one client of the page; called on the first press only. */
  createClient(): Promise<VoiceClient>;
  notify(toast: Toast): void;
  onChange(snapshot: VoiceSnapshot): void;
}

/** The toasts of spec section 8 for the voice widget. */
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
  private snapshot: VoiceSnapshot = { state: 'idle', speaking: false };
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
    this.set({ state: 'idle', speaking: false });
  }

  private async start(): Promise<void> {
    const attempt = ++this.attempt;
    this.set({ state: 'connecting', speaking: false });
    let answer: unknown;
    try {
      this.client ??= await this.connectClient();
      if (attempt !== this.attempt) return;
      answer = await this.client.start(this.options.assistantId);
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
    this.set({ state: 'idle', speaking: false });
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
      this.set({ state: 'connected', speaking: false });
      this.options.notify(VOICE_TOASTS.connected);
    });
    client.on('call-end', () => {
      if (this.snapshot.state === 'idle') return;
      const wasConnected = this.snapshot.state === 'connected';
      this.set({ state: 'idle', speaking: false });
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
    return client;
  }

  private fail(toast: (typeof VOICE_TOASTS)[keyof typeof VOICE_TOASTS]): void {
    this.attempt++;
    this.set({ state: 'idle', speaking: false });
    void this.client?.stop();
    this.options.notify(toast);
  }

  private set(snapshot: VoiceSnapshot): void {
    this.snapshot = snapshot;
    this.options.onChange(snapshot);
  }
}
