import { estimateForm } from '../../lib/forms/estimate.ts';
import { DefinedForm } from './FormQuestions.tsx';
import { continueToModels, QUEUED_TOAST, rememberAnswers, useLeadForm } from './use-lead-form.ts';

/** /estimacion: the personalised estimate. */
export default function EstimateForm() {
  const lead = useLeadForm({
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

  return <DefinedForm form={estimateForm} lead={lead} />;
}
