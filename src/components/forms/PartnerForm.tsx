import { useEffect, useRef, useState } from 'react';
import { showToast } from '../../lib/client/toast.ts';
import { HONEYPOT_FIELD } from '../../lib/forms/fields.ts';
import {
  INVESTMENT_LABELS,
  LAND_SIZE_LABELS,
  optionsOf,
  PARTNER_ROLE_LABELS,
  PARTNER_TIMELINE_LABELS,
  PROJECT_TYPE_LABELS,
  YES_NO_LABELS,
} from '../../lib/forms/labels.ts';
import { MESSAGES } from '../../lib/forms/messages.ts';
import {
  INVESTMENT_RANGES,
  LAND_SIZES,
  PARTNER_ROLES,
  PARTNER_STATES,
  PARTNER_TIMELINES,
  PROJECT_TYPES,
  YES_NO,
} from '../../lib/forms/options.ts';
import { partnerApplicationSchema } from '../../lib/forms/partner-application.ts';
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
import { useLeadForm } from './use-lead-form.ts';

interface Verdict {
  status: 'approved' | 'rejected';
  score: number;
}

export interface PartnerCopy {
  submit: string;
  home: string;
  approved: { title: string; text: string; next: string; pay: string; chat: string };
  rejected: { title: string; text: string; next: string; chat: string };
}

interface Props {
  copy: PartnerCopy;
  paymentLink: string;
  chatLink: string;
}

const STATES = PARTNER_STATES.map((state) => ({ value: state, label: state }));

/** /prefiltro-socios: the evaluation form, then the server's verdict. */
export default function PartnerForm({ copy, paymentLink, chatLink }: Props) {
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [formKey, setFormKey] = useState(0);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!verdict) return;
    resultHeading.current?.focus({ preventScroll: true });
    resultHeading.current?.closest('section')?.scrollIntoView({ block: 'start' });
  }, [verdict]);

  function backToForm() {
    setVerdict(null);
    setFormKey((key) => key + 1); // a fresh, empty form
  }

  function pay() {
    window.open(paymentLink, 'pago-consultoria', 'popup,width=800,height=600');
    backToForm();
  }

  function chat() {
    window.open(chatLink, '_blank', 'noopener');
    backToForm();
  }

  if (verdict) {
    const approved = verdict.status === 'approved';
    const text = approved ? copy.approved : copy.rejected;
    return (
      <section className="grid scroll-mt-40 gap-5 py-4 text-center sm:py-8" aria-labelledby="partner-result-title">
        <span
          className={`mx-auto inline-flex size-16 items-center justify-center rounded-full text-3xl ${approved ? 'bg-brand-100 text-brand-700' : 'bg-terracotta-500/15 text-terracotta-700'}`}
          aria-hidden="true"
        >
          {approved ? '✓' : '!'}
        </span>
        <h2 id="partner-result-title" ref={resultHeading} tabIndex={-1} className="text-3xl font-bold">
          {text.title}
        </h2>
        <p className="text-lg text-brand-800">{text.text}</p>
        <p className="text-brand-800">{text.next}</p>
        <div className="flex flex-col justify-center gap-3 sm:flex-row">
          {approved && (
            <button type="button" className="btn btn-accent" onClick={pay}>
              {copy.approved.pay}
            </button>
          )}
          <button type="button" className="btn btn-primary" onClick={chat}>
            {text.chat}
          </button>
          <a href="/" className="btn btn-outline">
            {copy.home}
          </a>
        </div>
      </section>
    );
  }

  return <PartnerQuestions key={formKey} submitLabel={copy.submit} onVerdict={setVerdict} />;
}

function PartnerQuestions({ submitLabel, onVerdict }: { submitLabel: string; onVerdict(verdict: Verdict): void }) {
  const { errors, busy, formProps } = useLeadForm<typeof partnerApplicationSchema, Verdict>({
    schema: partnerApplicationSchema,
    endpoint: '/api/partner-applications',
    missingToast: MESSAGES.partner.missing,
    failureToast: MESSAGES.partner.failure,
    onSuccess(answer) {
      showToast(answer.status === 'approved' ? MESSAGES.partner.approved : MESSAGES.partner.rejected);
      onVerdict(answer);
    },
  });

  let question = 0;
  const numbered = (label: string) => `${++question}. ${label}`;

  return (
    <form
      {...formProps}
      className="grid gap-6"
      aria-label="Evaluación de socios"
      method="post"
      action="/api/partner-applications"
    >
      <ChoiceGroup
        name="role"
        label={numbered('¿Cuál es tu rol en el proyecto?')}
        options={optionsOf(PARTNER_ROLES, PARTNER_ROLE_LABELS)}
        required
        error={errors.role}
        columns={2}
      />
      <ChoiceGroup
        name="project_type"
        label={numbered('¿Qué tipo de proyecto es?')}
        options={optionsOf(PROJECT_TYPES, PROJECT_TYPE_LABELS)}
        error={errors.project_type}
        columns={2}
      />
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="field-label mb-1.5 sm:col-span-2">{numbered('¿Dónde está el proyecto?')}</legend>
        <SelectField name="state" label="Estado" options={STATES} placeholder="Elige el estado" error={errors.state} />
        <TextField name="municipality" label="Municipio" required error={errors.municipality} maxLength={120} />
      </fieldset>
      <ChoiceGroup
        name="land_size"
        label={numbered('¿Qué superficie tiene el terreno?')}
        options={optionsOf(LAND_SIZES, LAND_SIZE_LABELS)}
        error={errors.land_size}
        columns={3}
      />
      <ChoiceGroup
        name="investment"
        label={numbered('¿Cuál es el rango de inversión (MXN)?')}
        options={optionsOf(INVESTMENT_RANGES, INVESTMENT_LABELS)}
        required
        error={errors.investment}
        columns={2}
      />
      <ChoiceGroup
        name="timeline"
        label={numbered('¿Cuándo quieres iniciar?')}
        options={optionsOf(PARTNER_TIMELINES, PARTNER_TIMELINE_LABELS)}
        required
        error={errors.timeline}
        columns={2}
      />
      <ChoiceGroup
        name="legal_documentation"
        label={numbered('¿Tu documentación legal del terreno está en regla?')}
        options={optionsOf(YES_NO, YES_NO_LABELS)}
        required
        error={errors.legal_documentation}
        columns={2}
        compact
      />
      <ChoiceGroup
        name="consultancy_payment"
        label={numbered('¿Estás de acuerdo con la consultoría de $899 MXN, acreditable si el proyecto avanza?')}
        options={optionsOf(YES_NO, YES_NO_LABELS)}
        required
        error={errors.consultancy_payment}
        columns={2}
        compact
      />
      <div className="grid gap-4 rounded-3xl bg-sand-50 p-5 ring-1 ring-brand-900/10 sm:grid-cols-2">
        <p className="font-semibold sm:col-span-2">¿Cómo te contactamos?</p>
        <NameField error={errors.name} />
        <PhoneField label="Teléfono (WhatsApp)" error={errors.phone} />
      </div>
      <Honeypot name={HONEYPOT_FIELD} />
      <div className="grid gap-3">
        <MarketingConsent />
        <SubmitButton busy={busy} label={submitLabel} />
        <PrivacyNote />
      </div>
    </form>
  );
}
