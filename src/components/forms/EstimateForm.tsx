import { estimateForm } from '../../lib/forms/estimate.ts';
import { DefinedForm } from './FormQuestions.tsx';
import { continueToModels, rememberAnswers, useLeadForm } from './use-lead-form.ts';

/** /estimacion: the personalised estimate. */
export default function EstimateForm() {
  const lead = useLeadForm({
    form: estimateForm,
    extra: () => ({ source: 'estimacion' }),
    onSuccess(_answer, values) {
      rememberAnswers('estimateData', values);
      continueToModels(estimateForm.toasts.success);
    },
    onQueued(values, _form, queued) {
      rememberAnswers('estimateData', values);
      return continueToModels(queued.toast, queued);
    },
  });

  return <DefinedForm form={estimateForm} lead={lead} />;
}
