import { preFilterForm } from '../../lib/forms/pre-filter.ts';
import { FormFooter, FormQuestions } from './FormQuestions.tsx';
import { continueToModels, QUEUED_TOAST, rememberAnswers, useLeadForm } from './use-lead-form.ts';

/** /prefiltro: "Primer paso hacia tu casa". */
export default function PreFilterForm() {
  const { errors, busy, formProps } = useLeadForm({
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

  return (
    <form
      {...formProps}
      className="grid gap-6"
      aria-label={preFilterForm.label}
      method="post"
      action={preFilterForm.endpoint}
    >
      <FormQuestions form={preFilterForm} errors={errors} />
      <FormFooter form={preFilterForm} busy={busy} />
    </form>
  );
}
