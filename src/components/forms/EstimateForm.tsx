import { estimateForm } from '../../lib/forms/estimate.ts';
import { FormFooter, FormQuestions } from './FormQuestions.tsx';
import { continueToModels, QUEUED_TOAST, rememberAnswers, useLeadForm } from './use-lead-form.ts';

/** /estimacion: the personalised estimate. */
export default function EstimateForm() {
  const { errors, busy, formProps } = useLeadForm({
    form: estimateForm,
    extra: () => ({ source: 'estimacion' }),
    onSuccess(_answer, values) {
      rememberAnswers('estimateData', values);
      continueToModels(estimateForm.toasts.success, false);
    },
    onQueued(values) {
      rememberAnswers('estimateData', values);
      return continueToModels(QUEUED_TOAST, true);
    },
  });

  return (
    <form
      {...formProps}
      className="grid gap-6"
      aria-label={estimateForm.label}
      method="post"
      action={estimateForm.endpoint}
    >
      <FormQuestions form={estimateForm} errors={errors} />
      <FormFooter form={estimateForm} busy={busy} />
    </form>
  );
}
