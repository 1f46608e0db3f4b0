import { type FormEvent, useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import { flashToast } from '../../lib/client/flash.ts';
import {
  dropFromOutbox,
  isRetriable,
  type KeepResult,
  keepInOutbox,
  OUTBOX_MAX,
  requestOutboxSend,
} from '../../lib/client/outbox.ts';
import { type LeadResult, leadBody, newIdempotencyKey, submitLead } from '../../lib/client/submit-lead.ts';
import { showToast, type Toast } from '../../lib/client/toast.ts';
import type { FormDefinition } from '../../lib/forms/definition.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { HONEYPOT_FIELD, PRIVACY_ACCEPTED_AT_FIELD, PRIVACY_VERSION_FIELD } from '../../lib/forms/fields.ts';

interface Options<Schema extends z.ZodMiniObject, Answer> {
  /**
   * The form's definition: schema, endpoint and toasts (`missing` for invalid answers, `failure` when not
   * saved; `delivered`, if it has one, when a request kept in the outbox goes through later).
   */
  form: FormDefinition<Schema>;
  /** Extra fields that are not inputs of the form (e.g. `source`, `origin`). */
  extra?: () => Record<string, unknown>;
  onSuccess(answer: Answer, values: Record<string, string>, form: HTMLFormElement): void;
  /**
   * The request could not reach us (no answer, or one that asks to try
   * again): it waits in the outbox and the visitor goes on as after a
   * success, where that can be done without the server's answer. `toast` says
   * why it waits; `reached` is false when no answer came at all. Without it,
   * the form stays as it is and the toast is shown.
   */
  onQueued?(values: Record<string, string>, form: HTMLFormElement, queued: Queued): 'leaving' | undefined;
}

/** Why a request waits in the outbox, and what the visitor reads about it. */
export interface Queued {
  toast: Toast;
  /** Whether our server (or its gateway) answered: then the next page loads. */
  reached: boolean;
}

/** What the visitor reads when the request waits in the outbox (issues #14 and #25). */
export const QUEUED_TOASTS = {
  offline: {
    title: 'Solicitud guardada',
    description: 'Sin conexión: guardamos tu solicitud y la enviaremos en cuanto vuelvas a tener señal.',
  },
  /** No answer in SUBMIT_TIMEOUT_MS, or none at all while the browser thinks it is online. */
  noAnswer: {
    title: 'Solicitud guardada',
    description: 'Tu conexión no respondió: guardamos tu solicitud y la enviaremos en cuanto mejore la señal.',
  },
  /** 408, 429 or 5xx: the server asked us to try again. */
  busy: {
    title: 'Solicitud guardada',
    description:
      'No pudimos enviarla en este momento: la guardamos en este navegador y la enviaremos en cuanto sea posible.',
  },
} satisfies Record<string, Toast>;

/** A request that could not be sent nor kept: the visitor must not believe it is saved. */
export const NOT_KEPT_TOASTS = {
  full: {
    title: 'No pudimos enviar tu solicitud',
    description: `Ya hay ${OUTBOX_MAX} solicitudes esperando a enviarse desde este navegador. Tus datos siguen en el formulario: inténtalo de nuevo en unos minutos.`,
    variant: 'destructive',
  },
  unavailable: {
    title: 'No pudimos enviar tu solicitud',
    description:
      'Tu navegador no nos permite guardarla para enviarla después. Tus datos siguen en el formulario: inténtalo de nuevo en unos minutos.',
    variant: 'destructive',
  },
} satisfies Record<Exclude<KeepResult, 'kept'>, Toast>;

function queuedBecause(status: number): Queued {
  if (status !== 0) return { toast: QUEUED_TOASTS.busy, reached: true };
  return { toast: navigator.onLine ? QUEUED_TOASTS.noAnswer : QUEUED_TOASTS.offline, reached: false };
}

/**
 * After a success, go to /modelos. A request kept without any answer: the
 * next page would not load either, so stay; the toast says why. 'leaving'
 * when the page goes (the next one sends what waits).
 */
export function continueToModels(toast: Toast, queued?: Queued): 'leaving' | undefined {
  if (queued && !queued.reached) {
    showToast(toast);
    return undefined;
  }
  flashToast(toast);
  window.location.assign('/modelos');
  return 'leaving';
}

/**
 * Keeps the visitor's answers in this browser (docs/product.md §4: preFilterData,
 * estimateData), without the fields that are not answers.
 */
export function rememberAnswers(key: 'preFilterData' | 'estimateData', values: Record<string, string>): void {
  const { source: _source, [HONEYPOT_FIELD]: _honeypot, ...answers } = values;
  try {
    localStorage.setItem(key, JSON.stringify(answers));
  } catch {
    // Storage off or full: the lead is stored on the server all the same.
  }
}

/** Form values as the inputs hold them; empty inputs are left out. */
export function readForm(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value !== '') values[name] = value;
  return values;
}

/**
 * One lead form: validates with the shared schema, shows the field messages
 * and the form's toasts, sends once per attempt (the idempotency key is kept
 * until a success, so a retry never stores twice), and never clears what the
 * visitor typed unless the lead was stored.
 */
export function useLeadForm<Schema extends z.ZodMiniObject, Answer = unknown>(options: Options<Schema, Answer>) {
  const { form: definition } = options;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const attemptKey = useRef<string | null>(null);
  const attemptBody = useRef<string | null>(null);
  const attemptPayload = useRef('');
  const busyRef = useRef(false);

  useEffect(() => {
    setReady(true);
    // A submit pressed while the island was still loading was held by the page script.
    const form = formRef.current;
    if (form?.dataset.submitQueued) {
      delete form.dataset.submitQueued;
      queueMicrotask(() => form.requestSubmit());
    }
  }, []);

  function showErrors(fields: Record<string, string>, form: HTMLFormElement) {
    setErrors(fields);
    const first = Object.keys(fields)[0];
    const input = first ? form.querySelector<HTMLElement>(`[name="${first}"]`) : null;
    input?.focus();
    showToast(definition.toasts.missing);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busyRef.current) return;
    const form = event.currentTarget;
    const values = { ...readForm(form), ...options.extra?.() };
    const parsed = definition.schema.safeParse(values);
    if (!parsed.success) {
      showErrors(fieldMessages(parsed.error), form);
      return;
    }

    busyRef.current = true;
    setBusy(true);
    setErrors({});
    // One key per payload: a retry of the same answers reuses it and its request, consent time
    // included (stored once), edited answers get a new one (the server refuses a key reused with
    // other data, 422). The privacy notice's version and the time are those of this press, kept
    // with the request however late it is delivered (issue #25).
    const body = JSON.stringify(values);
    if (attemptKey.current === null || attemptBody.current !== body) {
      attemptKey.current = newIdempotencyKey();
      attemptBody.current = body;
      attemptPayload.current = leadBody({
        ...values,
        [PRIVACY_VERSION_FIELD]: PRIVACY_NOTICE_VERSION,
        [PRIVACY_ACCEPTED_AT_FIELD]: new Date().toISOString(),
      });
    }
    const key = attemptKey.current;
    const payload = attemptPayload.current;
    const result: LeadResult<Answer> = await submitLead<Answer>(definition.endpoint, payload, key);
    busyRef.current = false;
    setBusy(false);

    if (result.ok) {
      attemptKey.current = null;
      dropFromOutbox(key); // kept by an earlier press of the same answers: it is stored now
      options.onSuccess(result.data, values as Record<string, string>, form);
    } else if (isRetriable(result.status)) {
      // Kept with its key: however many times it is sent later, or the same answers sent again
      // from the form, it is stored once.
      const now = Date.now();
      const { delivered } = definition.toasts as { delivered?: Toast };
      const kept = keepInOutbox({
        key,
        endpoint: definition.endpoint,
        body: payload,
        savedAt: now,
        ...(result.retryAfter === undefined ? {} : { notBefore: now + result.retryAfter }),
        ...(delivered ? { delivered } : {}),
      });
      if (kept !== 'kept') {
        // Not kept: nothing will send it. The form stays as typed; the same answers keep their key.
        showToast(NOT_KEPT_TOASTS[kept]);
        return;
      }
      const queued = queuedBecause(result.status);
      let leaving: 'leaving' | undefined;
      if (options.onQueued) leaving = options.onQueued(values as Record<string, string>, form, queued);
      else showToast(queued.toast);
      // Staying: this page's sender (in the page script) sends it. Leaving: the next page does,
      // so one page never races the other.
      if (leaving !== 'leaving') requestOutboxSend();
    } else if (result.status === 400 && Object.keys(result.fields).length > 0) {
      showErrors(result.fields, form);
    } else {
      console.error(`No se pudo enviar el formulario (${definition.endpoint}): estado ${result.status}`);
      showToast(definition.toasts.failure);
    }
  }

  return {
    errors,
    busy,
    formProps: {
      ref: formRef,
      onSubmit,
      noValidate: true,
      'data-enhanced': ready ? 'ready' : 'pending',
    },
  };
}
