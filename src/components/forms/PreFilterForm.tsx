import { preFilterForm } from '../../lib/forms/pre-filter.ts';
import { DefinedForm } from './FormQuestions.tsx';
import { continueToModels, rememberAnswers, useLeadForm } from './use-lead-form.ts';

/** /prefiltro: "Primer paso hacia tu casa". */
export default function PreFilterForm() {
  const lead = useLeadForm({
    form: preFilterForm,
    extra: () => ({ source: 'prefiltro' }),
    onSuccess(_answer, values) {
      rememberAnswers('preFilterData', values);
      window.location.assign('/modelos');
    },
    onQueued(values, _form, queued) {
      rememberAnswers('preFilterData', values);
      return continueToModels(queued.toast, queued);
    },
  });

  return <DefinedForm form={preFilterForm} lead={lead} />;
}
