import { preFilterForm } from '../../lib/forms/pre-filter.ts';
import { DefinedForm } from './FormQuestions.tsx';
import { continueToModels, QUEUED_TOAST, rememberAnswers, useLeadForm } from './use-lead-form.ts';

/** /prefiltro: "Primer paso hacia tu casa". */
export default function PreFilterForm() {
  const lead = useLeadForm({
    form: preFilterForm,
    extra: () => ({ source: 'prefiltro' }),
    onSuccess(_answer, values) {
      rememberAnswers('preFilterData', values);
      window.location.assign('/modelos');
    },
    onQueued(values) {
      rememberAnswers('preFilterData', values);
      return continueToModels(QUEUED_TOAST, true);
    },
  });

  return <DefinedForm form={preFilterForm} lead={lead} />;
}
