import { useEffect, useRef, useState } from 'react';
import { showToast } from '../../lib/client/toast.ts';
import { VoiceCall, type VoiceClient, type VoiceSnapshot } from './voice-call.ts';

interface Props {
  publicKey: string;
  assistantId: string;
}

/** Loads the voice SDK (~83 KB gzip with Daily's call library) only now, on the visitor's press. */
async function createVapiClient(publicKey: string): Promise<VoiceClient> {
  const module = (await import('@vapi-ai/web')) as unknown as { default: { default?: unknown } };
  const Vapi = (module.default.default ?? module.default) as new (
    key: string,
    baseUrl?: string,
    daily?: { avoidEval: boolean },
  ) => VoiceClient;
  return new Vapi(publicKey, undefined, { avoidEval: true });
}

const LABELS = {
  idle: { desktop: 'Hablar con un agente', mobile: 'Hablar con agente' },
  connecting: { desktop: 'Conectando...', mobile: 'Conectando...' },
  connected: { desktop: 'Terminar llamada', mobile: 'Colgar' },
} as const;

/** The floating voice-agent button, bottom right on every page (spec, section 2). */
export default function VoiceWidget({ publicKey, assistantId }: Props) {
  const [snapshot, setSnapshot] = useState<VoiceSnapshot>({ state: 'idle', speaking: false });
  const [ready, setReady] = useState(false);
  const call = useRef<VoiceCall | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const voice = new VoiceCall({
      assistantId,
      createClient: () => createVapiClient(publicKey),
      notify: showToast,
      onChange: setSnapshot,
    });
    call.current = voice;
    setReady(true);
    const end = () => voice.dispose();
    window.addEventListener('pagehide', end);
    // A press that came before the island was ready (held by the page script).
    if (button.current?.dataset.queuedClick) {
      delete button.current.dataset.queuedClick;
      void voice.press();
    }
    return () => {
      window.removeEventListener('pagehide', end);
      end();
    };
  }, [publicKey, assistantId]);

  const { state, speaking } = snapshot;
  const label = LABELS[state];
  const tone =
    state === 'connected'
      ? 'bg-danger-600 text-white hover:bg-red-800'
      : state === 'connecting'
        ? 'bg-brand-800 text-white/90 cursor-progress'
        : 'bg-brand-700 text-white hover:bg-brand-800';

  return (
    <div className="flex flex-col items-end gap-2">
      {speaking && (
        <span className="rounded-full bg-white px-3 py-1 text-sm font-semibold text-brand-900 shadow-md ring-1 ring-brand-900/10">
          <span className="hidden sm:inline">Agente hablando...</span>
          <span className="sm:hidden">Hablando...</span>
        </span>
      )}
      <button
        ref={button}
        type="button"
        data-voice-button
        data-enhanced={ready ? 'ready' : 'pending'}
        data-state={state}
        onClick={() => void call.current?.press()}
        aria-busy={state === 'connecting' || undefined}
        className={`inline-flex min-h-12 items-center gap-2 rounded-full px-4 py-3 font-semibold shadow-lg ring-1 ring-black/10 ${tone}`}
      >
        <MicrophoneIcon />
        <span className="hidden sm:inline">{label.desktop}</span>
        <span className="sm:hidden">{label.mobile}</span>
        {state === 'connecting' && <span className="sr-only"> (pulsa para cancelar)</span>}
      </button>
    </div>
  );
}

function MicrophoneIcon() {
  return (
    <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5 11a7 7 0 0 0 14 0M12 18v3" strokeLinecap="round" />
    </svg>
  );
}
