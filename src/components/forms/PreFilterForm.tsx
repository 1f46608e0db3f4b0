import { HONEYPOT_FIELD } from '../../lib/forms/fields.ts';
import { LAND_OPTION_LABELS, OBJECTIVE_LABELS, optionsOf, PREFILTER_TIMELINE_LABELS } from '../../lib/forms/labels.ts';
import { MESSAGES } from '../../lib/forms/messages.ts';
import { LAND_OPTIONS, MEXICAN_STATES, OBJECTIVES, PREFILTER_TIMELINES } from '../../lib/forms/options.ts';
import { preFilterSchema } from '../../lib/forms/quote-request.ts';
import {
  ChoiceGroup,
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

const STATES = MEXICAN_STATES.map((state) => ({ value: state, label: state }));

/** /prefiltro: "Primer paso hacia tu casa". */
export default function PreFilterForm({ submitLabel }: { submitLabel: string }) {
  const { errors, busy, formProps } = useLeadForm({
    schema: preFilterSchema,
    endpoint: '/api/quote-requests',
    missingToast: MESSAGES.preFilter.missing,
    failureToast: MESSAGES.preFilter.failure,
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
      aria-label="Primer paso hacia tu casa"
      method="post"
      action="/api/quote-requests"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <NameField label="Nombre de contacto" error={errors.name} />
        <PhoneField label="Teléfono (WhatsApp)" error={errors.phone} />
        <SelectField name="state" label="Estado" options={STATES} placeholder="Elige tu estado" error={errors.state} />
        <TextField
          name="municipality"
          label="Municipio"
          autoComplete="address-level2"
          required
          error={errors.municipality}
          maxLength={120}
        />
      </div>
      <ChoiceGroup
        name="land_option"
        label="¿Cuentas con terreno?"
        options={optionsOf(LAND_OPTIONS, LAND_OPTION_LABELS)}
        required
        error={errors.land_option}
        columns={2}
      />
      <ChoiceGroup
        name="timeline"
        label="¿Cuándo te gustaría iniciar?"
        options={optionsOf(PREFILTER_TIMELINES, PREFILTER_TIMELINE_LABELS)}
        error={errors.timeline}
        columns={3}
      />
      <ChoiceGroup
        name="objective"
        label="¿Cuál es el objetivo de tu proyecto?"
        options={optionsOf(OBJECTIVES, OBJECTIVE_LABELS)}
        error={errors.objective}
        columns={2}
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
