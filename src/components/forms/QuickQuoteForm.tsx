import { quickQuoteForm } from '../../lib/forms/quick-quote.ts';
import { DefinedForm } from './FormQuestions.tsx';
import { continueToModels, useLeadForm } from './use-lead-form.ts';

interface Props {
  /** The <dialog> this form lives in; its `data-origin` says which button opened it. */
  dialogId: string;
}

/** The quick-quote dialog's form (docs/product.md). */
export default function QuickQuoteForm({ dialogId }: Props) {
  const lead = useLeadForm({
    form: quickQuoteForm,
    extra: () => ({ origin: document.getElementById(dialogId)?.dataset.origin ?? 'unknown' }),
    onSuccess(_answer, _values, form) {
      (document.getElementById(dialogId) as HTMLDialogElement | null)?.close();
      form.reset();
      continueToModels(quickQuoteForm.toasts.success);
    },
    onQueued(_values, form, queued) {
      (document.getElementById(dialogId) as HTMLDialogElement | null)?.close();
      form.reset();
      return continueToModels(queued.toast, queued);
    },
  });

  return <DefinedForm form={quickQuoteForm} lead={lead} className="grid gap-4" idPrefix="qq-" />;
}
