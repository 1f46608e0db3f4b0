import { HONEYPOT_FIELD } from '../../lib/forms/fields.ts';
import { BUDGET_LABELS, FINISH_LABELS, optionsOf } from '../../lib/forms/labels.ts';
import { MESSAGES } from '../../lib/forms/messages.ts';
import { BUDGET_UNKNOWN, BUDGETS, FINISHES } from '../../lib/forms/options.ts';
import { estimateSchema } from '../../lib/forms/quote-request.ts';
import {
  ChoiceGroup,
  EmailField,
  Honeypot,
  MarketingConsent,
  NameField,
  PhoneField,
  PrivacyNote,
  SelectField,
  SubmitButton,
  TextField,
} from './fields.tsx';
import { continueToModels, QUEUED_TOAST, rememberAnswers, useLeadForm } from './use-lead-form.ts';

const LEVELS = [
  { value: '1', label: '1 nivel' },
  { value: '2', label: '2 niveles' },
];

/** /estimacion: the personalised estimate. */
export default function EstimateForm({ submitLabel }: { submitLabel: string }) {
  const { errors, busy, formProps } = useLeadForm({
    schema: estimateSchema,
    endpoint: '/api/quote-requests',
    missingToast: MESSAGES.estimate.missing,
    failureToast: MESSAGES.estimate.failure,
    extra: () => ({ source: 'estimacion' }),
    onSuccess(_answer, values) {
      rememberAnswers('estimateData', values);
      continueToModels(MESSAGES.estimate.success, false);
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
      aria-label="Estimación personalizada"
      method="post"
      action="/api/quote-requests"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <NameField error={errors.name} />
        <PhoneField error={errors.phone} />
        <EmailField error={errors.email} />
        <TextField
          name="terrain_size"
          label="Tamaño del terreno (m²)"
          inputMode="decimal"
          placeholder="Por ejemplo, 250"
          error={errors.terrain_size}
          maxLength={10}
        />
      </div>
      <ChoiceGroup
        name="levels"
        label="Niveles"
        options={LEVELS}
        defaultValue="1"
        required
        error={errors.levels}
        columns={2}
        compact
      />
      <ChoiceGroup
        name="finishes"
        label="Acabados"
        options={optionsOf(FINISHES, FINISH_LABELS)}
        defaultValue="basico"
        required
        error={errors.finishes}
        columns={3}
        compact
      />
      <SelectField
        name="budget"
        label="Presupuesto aproximado"
        options={optionsOf(BUDGETS, BUDGET_LABELS)}
        defaultValue={BUDGET_UNKNOWN}
        error={errors.budget}
      />
      <Honeypot name={HONEYPOT_FIELD} />
      <div className="grid gap-3">
        <MarketingConsent />
        <SubmitButton busy={busy} label={submitLabel} />
        <PrivacyNote />
      </div>
    </form>
  );
}
