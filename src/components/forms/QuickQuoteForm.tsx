import { HONEYPOT_FIELD } from '../../lib/forms/fields.ts';
import { MESSAGES } from '../../lib/forms/messages.ts';
import { quickQuoteSchema } from '../../lib/forms/quick-quote.ts';
import { EmailField, Honeypot, MarketingConsent, NameField, PhoneField, PrivacyNote, SubmitButton } from './fields.tsx';
import { continueToModels, QUEUED_TOAST, useLeadForm } from './use-lead-form.ts';

interface Props {
  /** The <dialog> this form lives in; its `data-origin` says which button opened it. */
  dialogId: string;
  submitLabel: string;
  submittingLabel: string;
}

/** The quick-quote dialog's form (spec: quick quote). */
export default function QuickQuoteForm({ dialogId, submitLabel, submittingLabel }: Props) {
  const { errors, busy, formProps } = useLeadForm({
    schema: quickQuoteSchema,
    endpoint: '/api/quick-quotes',
    missingToast: MESSAGES.quickQuote.missing,
    failureToast: MESSAGES.quickQuote.failure,
    extra: () => ({ origin: document.getElementById(dialogId)?.dataset.origin ?? 'unknown' }),
    onSuccess(_answer, _values, form) {
      (document.getElementById(dialogId) as HTMLDialogElement | null)?.close();
      form.reset();
      continueToModels(MESSAGES.quickQuote.success, false);
    },
    onQueued(_values, form) {
      (document.getElementById(dialogId) as HTMLDialogElement | null)?.close();
      form.reset();
      return continueToModels(QUEUED_TOAST, true);
    },
  });

  return (
    <form {...formProps} className="grid gap-4" aria-label="Estimación rápida" method="post" action="/api/quick-quotes">
      <NameField idPrefix="qq-" error={errors.name} />
      <PhoneField idPrefix="qq-" hint="10 dígitos; te escribimos por WhatsApp." error={errors.phone} />
      <EmailField idPrefix="qq-" error={errors.email} />
      <Honeypot name={HONEYPOT_FIELD} />
      <div className="grid gap-3">
        <MarketingConsent />
        <SubmitButton busy={busy} label={submitLabel} busyLabel={submittingLabel} />
        <PrivacyNote />
      </div>
    </form>
  );
}
