import { useEffect, useRef, useState } from 'react';
import { readAttribution } from '../../lib/client/attribution.ts';
import { showToast } from '../../lib/client/toast.ts';
import type { CallMetadata } from '../../lib/voice/calls.ts';
import { captionsWanted, hasConsent, rememberCaptions, rememberConsent } from './preferences.ts';
import { IDLE, VoiceCall, type VoiceClient, type VoiceSnapshot } from './voice-call.ts';

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

/** The page the call starts on, and the visit's attribution: the team sees where the call came from. */
function callMetadata(): CallMetadata {
  return { page: location.pathname.slice(0, 2000), ...readAttribution() };
}

const PHONE = '(max-width: 639px)';

const LABELS = {
  idle: { desktop: 'Hablar con un agente', mobile: 'Hablar con agente' },
  connecting: { desktop: 'Conectando...', mobile: 'Conectando...' },
  connected: { desktop: 'Terminar llamada', mobile: 'Colgar' },
} as const;

/** The floating voice-agent button, bottom right on every public page (docs/product.md §16). */
export default function VoiceWidget({ publicKey, assistantId }: Props) {
  const [snapshot, setSnapshot] = useState<VoiceSnapshot>(IDLE);
  const [ready, setReady] = useState(false);
  const [captions, setCaptions] = useState(false);
  const call = useRef<VoiceCall | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const consentDialog = useRef<HTMLDialogElement>(null);
  const answerConsent = useRef<((accepted: boolean) => void) | null>(null);

  useEffect(() => {
    setCaptions(captionsWanted(window.matchMedia(PHONE).matches));
    /** The first call on this device waits for the visitor's yes; "Ahora no" (or Esc) keeps the widget idle. */
    const consent = (): Promise<boolean> => {
      if (hasConsent()) return Promise.resolve(true);
      const dialog = consentDialog.current;
      if (!dialog) return Promise.resolve(false);
      return new Promise((resolve) => {
        answerConsent.current = resolve;
        dialog.showModal();
      });
    };
    const voice = new VoiceCall({
      assistantId,
      createClient: () => createVapiClient(publicKey),
      notify: showToast,
      onChange: setSnapshot,
      metadata: callMetadata,
      consent,
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

  function closeConsent(accepted: boolean) {
    if (accepted) rememberConsent();
    const resolve = answerConsent.current;
    answerConsent.current = null;
    consentDialog.current?.close();
    resolve?.(accepted);
    if (!accepted) button.current?.focus();
  }

  function toggleCaptions() {
    rememberCaptions(!captions);
    setCaptions(!captions);
  }

  const { state, speaking, muted, level, captions: lines } = snapshot;
  const label = LABELS[state];
  const tone =
    state === 'connected'
      ? 'bg-danger-600 text-white hover:bg-red-800'
      : state === 'connecting'
        ? 'bg-brand-800 text-white/90 cursor-progress'
        : 'bg-brand-700 text-white hover:bg-brand-800';

  return (
    <div className="flex flex-col items-end gap-2">
      {/* Above the buttons: the hang-up button stays where the visitor pressed it. */}
      {state === 'connected' && captions && (
        <section
          aria-label="Subtítulos de la llamada"
          data-voice-transcript
          className="grid w-[min(22rem,calc(100vw-2rem))] gap-1 rounded-2xl bg-white p-3 text-sm text-brand-900 shadow-lg ring-1 ring-brand-900/10"
        >
          {lines.length === 0 ? (
            <p className="text-brand-800">Los subtítulos aparecerán aquí cuando alguien hable.</p>
          ) : (
            lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are replaced in place as the words arrive
              <p key={index} className={line.final ? '' : 'text-brand-800'}>
                <span className="font-bold">{line.role === 'agente' ? 'Agente' : 'Tú'}:</span> {line.text}
              </p>
            ))
          )}
        </section>
      )}
      {speaking && (
        <span className="rounded-full bg-white px-3 py-1 text-sm font-semibold text-brand-900 shadow-md ring-1 ring-brand-900/10">
          <span className="hidden sm:inline">Agente hablando...</span>
          <span className="sm:hidden">Hablando...</span>
        </span>
      )}
      <div className="flex items-center gap-2">
        {state === 'connected' && (
          <>
            <button
              type="button"
              data-voice-captions
              aria-pressed={captions}
              onClick={toggleCaptions}
              className="inline-flex min-h-12 items-center rounded-full bg-white px-3 text-sm font-bold text-brand-900 shadow-lg ring-1 ring-brand-900/15 aria-pressed:bg-brand-900 aria-pressed:text-white"
            >
              Subtítulos
            </button>
            <button
              type="button"
              data-voice-mute
              aria-pressed={muted}
              aria-label={muted ? 'Activar micrófono' : 'Silenciar micrófono'}
              title={muted ? 'Activar micrófono' : 'Silenciar micrófono'}
              onClick={() => call.current?.toggleMute()}
              className="inline-flex min-h-12 min-w-12 flex-col items-center justify-center gap-1 rounded-full bg-white px-3 text-brand-900 shadow-lg ring-1 ring-brand-900/15 aria-pressed:bg-danger-600 aria-pressed:text-white"
            >
              {muted ? <MicrophoneOffIcon /> : <MicrophoneIcon />}
              {/* The microphone's level: the visitor sees that they are heard. */}
              <span
                aria-hidden="true"
                data-voice-level={level}
                className="block h-1 w-6 overflow-hidden rounded-full bg-brand-900/15"
              >
                <span
                  className="block h-full origin-left bg-brand-600 transition-transform duration-100"
                  style={{ transform: `scaleX(${muted ? 0 : level})` }}
                />
              </span>
            </button>
          </>
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
      {/* Read to screen readers politely: only settled lines, once each. */}
      <div className="sr-only" aria-live="polite">
        {state === 'connected' && captions
          ? lines
              .filter((line) => line.final)
              .slice(-1)
              .map((line) => `${line.role === 'agente' ? 'Agente' : 'Tú'}: ${line.text}`)
          : ''}
      </div>
      <dialog
        ref={consentDialog}
        aria-labelledby="voice-consent-title"
        onCancel={(event) => {
          event.preventDefault();
          closeConsent(false);
        }}
        className="m-auto w-[min(26rem,calc(100vw-1.5rem))] rounded-3xl bg-sand-50 p-6 text-brand-900 shadow-2xl backdrop:bg-brand-900/60"
      >
        <h2 id="voice-consent-title" className="text-lg font-bold">
          Antes de llamar
        </h2>
        <p className="mt-2">
          Te atenderá un agente automático; la llamada puede grabarse y transcribirse.{' '}
          <a href="/aviso-de-privacidad#llamada-con-el-agente-de-voz" className="font-semibold underline">
            Aviso de privacidad
          </a>
        </p>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={() => closeConsent(false)}>
            Ahora no
          </button>
          <button type="button" className="btn btn-primary min-h-11 px-4 py-2" onClick={() => closeConsent(true)}>
            Aceptar y llamar
          </button>
        </div>
      </dialog>
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

function MicrophoneOffIcon() {
  return (
    <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
      <path
        d="M15 9.5V6a3 3 0 0 0-5.7-1.3M9 9v2a3 3 0 0 0 4.6 2.5M5 11a7 7 0 0 0 11.5 5.4M19 11a7 7 0 0 1-.6 2.8M12 18v3M4 4l16 16"
        strokeLinecap="round"
      />
    </svg>
  );
}
