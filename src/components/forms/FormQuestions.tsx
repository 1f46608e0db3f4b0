import type { ReactNode } from 'react';
import {
  type FormDefinition,
  inputLimit,
  isRequired,
  type Question,
  type Section,
} from '../../lib/forms/definition.ts';
import {
  ChoiceGroup,
  Honeypot,
  MarketingConsent,
  PrivacyNote,
  SelectField,
  SubmitButton,
  TextField,
} from './fields.tsx';
import type { useLeadForm } from './use-lead-form.ts';

interface Props {
  form: FormDefinition;
  errors: Record<string, string | undefined>;
  /** Makes ids unique when one page has the same field twice (the quick-quote dialog). */
  idPrefix?: string;
}

/**
 * A form's questions, in its definition's order and words: `required` and
 * `maxLength` come from the schema the server checks with.
 */
export function FormQuestions({ form, errors, idPrefix = '' }: Props) {
  let number = 0;
  const numbered = (label: string) => (form.numbered ? `${++number}. ${label}` : label);

  return form.sections.map((section, index) => {
    const key = section.title ?? section.questions[0]?.name ?? index;
    const only = section.questions.length === 1 && !section.title ? section.questions[0] : undefined;
    if (only) {
      return (
        <QuestionField key={key} form={form} question={only} label={numbered(only.label)} {...{ errors, idPrefix }} />
      );
    }
    const fields = section.questions.map((question) => (
      <QuestionField
        key={question.name}
        form={form}
        question={question}
        label={question.label}
        {...{ errors, idPrefix }}
      />
    ));
    return <SectionFrame key={key} section={section} title={numberedTitle(section, numbered)} fields={fields} />;
  });
}

/** A block's title, numbered like a question (the contact card's is not). */
function numberedTitle(section: Section, numbered: (label: string) => string): string | undefined {
  if (!section.title) return undefined;
  return section.style === 'card' ? section.title : numbered(section.title);
}

function SectionFrame({ section, title, fields }: { section: Section; title: string | undefined; fields: ReactNode }) {
  const grid = section.columns === 2 ? 'grid gap-4 sm:grid-cols-2' : 'grid gap-4';
  if (section.style === 'card') {
    return (
      <div className={`${grid} rounded-3xl bg-sand-50 p-5 ring-1 ring-brand-900/10`}>
        {title && <p className="font-semibold sm:col-span-2">{title}</p>}
        {fields}
      </div>
    );
  }
  if (title) {
    return (
      <fieldset className={grid}>
        <legend className="field-label mb-1.5 sm:col-span-2">{title}</legend>
        {fields}
      </fieldset>
    );
  }
  return <div className={grid}>{fields}</div>;
}

function QuestionField({
  form,
  question,
  label,
  errors,
  idPrefix,
}: {
  form: FormDefinition;
  question: Question;
  label: string;
  errors: Record<string, string | undefined>;
  idPrefix: string;
}) {
  const common = {
    name: question.name,
    label,
    hint: question.hint,
    error: errors[question.name],
    required: isRequired(form, question),
    idPrefix,
  };
  switch (question.kind) {
    case 'text':
      return (
        <TextField
          {...common}
          type={question.type}
          inputMode={question.inputMode}
          autoComplete={question.autoComplete}
          placeholder={question.placeholder}
          maxLength={inputLimit(form, question.name)}
        />
      );
    case 'select':
      return (
        <SelectField
          {...common}
          options={question.options}
          placeholder={question.placeholder}
          defaultValue={question.defaultValue}
        />
      );
    case 'choice':
      return (
        <ChoiceGroup
          {...common}
          options={question.options}
          defaultValue={question.defaultValue}
          columns={question.columns}
          compact={question.compact}
        />
      );
  }
}

/**
 * A lead form from its definition: the questions, then the hidden honeypot,
 * the marketing consent, the button and the privacy note. Without JavaScript
 * it still posts to the endpoint.
 */
export function DefinedForm({
  form,
  lead,
  className = 'grid gap-6',
  idPrefix,
}: {
  form: FormDefinition;
  lead: Pick<ReturnType<typeof useLeadForm>, 'errors' | 'busy' | 'formProps'>;
  className?: string;
  idPrefix?: string;
}) {
  return (
    <form {...lead.formProps} className={className} aria-label={form.label} method="post" action={form.endpoint}>
      <FormQuestions form={form} errors={lead.errors} idPrefix={idPrefix} />
      <Honeypot />
      <div className="grid gap-3">
        <MarketingConsent />
        <SubmitButton busy={lead.busy} label={form.submit.label} busyLabel={form.submit.busyLabel} />
        <PrivacyNote />
      </div>
    </form>
  );
}
