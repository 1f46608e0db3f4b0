import { type FormEvent, useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { flashToast } from '../../lib/client/flash.ts';
import { isNetworkFailure, keepInOutbox, requestOutboxSend } from '../../lib/client/outbox.ts';
import { type LeadResult, leadBody, newIdempotencyKey, submitLead } from '../../lib/client/submit-lead.ts';
import { showToast, type Toast } from '../../lib/client/toast.ts';
import type { FormDefinition } from '../../lib/forms/definition.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { HONEYPOT_FIELD } from '../../lib/forms/fields.ts';

interface Options<Schema extends z.ZodMiniObject, Answer> {
  /** The form's definition: schema, endpoint and toasts (`missing` for invalid answers, `failure` when not saved). */
  form: FormDefinition<Schema>;
  /** Extra fields that are not inputs of the form (e.g. `source`, `origin`). */
  extra?: () => Record<string, unknown>;
  onSuccess(answer: Answer, values: Record<string, string>, form: HTMLFormElement): void;
  /**
   * The request could not reach us (no connection, a gateway error): it waits
   * in the outbox and the visitor goes on as after a success, where that can
   * be done without the server's answer. Without it, the form stays as it is.
   */
  onQueued?(values: Record<string, string>, form: HTMLFormElement): 'leaving' | undefined;
}

/** What the visitor reads when the request waits in the outbox (issue #14). */
export const QUEUED_TOAST: Toast = {
  title: 'Solicitud guardada',
  description: 'Sin conexión: guardamos tu solicitud y la enviaremos en cuanto vuelvas a tener señal.',
};

/**
 * After a success, go to /modelos; offline, the next page would not load: stay,
 * the toast says why. 'leaving' when the page goes (the next one sends what waits).
 */
export function continueToModels(toast: Toast, queued: boolean): 'leaving' | undefined {
  if (queued && !navigator.onLine) {
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
    // One key per payload: a retry of the same answers reuses it (stored once), edited answers get a
    // new one (the server refuses a key reused with other data, 422).
    const body = JSON.stringify(values);
    if (attemptKey.current === null || attemptBody.current !== body) {
      attemptKey.current = newIdempotencyKey();
      attemptBody.current = body;
    }
    const payload = leadBody(values);
    const result: LeadResult<Answer> = await submitLead<Answer>(definition.endpoint, payload, attemptKey.current);
    busyRef.current = false;
    setBusy(false);

    if (result.ok) {
      attemptKey.current = null;
      options.onSuccess(result.data, values as Record<string, string>, form);
    } else if (isNetworkFailure(result.status)) {
      // Kept with its key: however many times it is sent later, it is stored once.
      keepInOutbox({ key: attemptKey.current, endpoint: definition.endpoint, body: payload, savedAt: Date.now() });
      attemptKey.current = null;
      let leaving: 'leaving' | undefined;
      if (options.onQueued) leaving = options.onQueued(values as Record<string, string>, form);
      else showToast(QUEUED_TOAST);
      // Staying: this page's sender (in the page script) sends it. Leaving: the next page does,
      // so one page never races the other.
      if (leaving !== 'leaving') requestOutboxSend();
    } else if (result.status === 400 && Object.keys(result.fields).length > 0) {
      showErrors(result.fields, form);
    } else if (result.status === 429 && result.error) {
      showToast({ title: 'Error', description: result.error, variant: 'destructive' });
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
