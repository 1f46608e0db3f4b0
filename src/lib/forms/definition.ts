import type * as z from 'zod/mini';
import type { Toast } from '../client/toast.ts';

/** One answer of a closed question: the stored value and what the visitor reads. */
export interface Option {
  value: string;
  label: string;
}

interface QuestionBase<Name extends string> {
  /** The input's name, also the JSON field the endpoint expects and the schema's key. */
  name: Name;
  label: string;
  hint?: string;
}

export interface TextQuestion<Name extends string = string> extends QuestionBase<Name> {
  kind: 'text';
  type?: 'text' | 'tel' | 'email';
  inputMode?: 'text' | 'tel' | 'email' | 'decimal' | 'numeric';
  autoComplete?: string;
  placeholder?: string;
}

export interface SelectQuestion<Name extends string = string> extends QuestionBase<Name> {
  kind: 'select';
  options: readonly Option[];
  /** The empty first entry; absent when a default is chosen. */
  placeholder?: string;
  defaultValue?: string;
}

export interface ChoiceQuestion<Name extends string = string> extends QuestionBase<Name> {
  kind: 'choice';
  options: readonly Option[];
  defaultValue?: string;
  columns: 1 | 2 | 3;
  /** Short answers (Sí / No): side by side on phones too. */
  compact?: boolean;
}

export type Question<Name extends string = string> = TextQuestion<Name> | SelectQuestion<Name> | ChoiceQuestion<Name>;

/**
 * A block of the form. A block of one question shows that question; a block
 * with a title groups its questions under it: `fieldset` (a numbered question
 * with several inputs) or `card` (the contact details, set apart).
 */
export interface Section<Name extends string = string> {
  title?: string;
  style?: 'plain' | 'fieldset' | 'card';
  /** Two columns from the small breakpoint up. */
  columns?: 1 | 2;
  questions: readonly Question<Name>[];
}

/** What the endpoint answers when the form cannot be stored or is invalid (issue #15: one definition per form). */
export interface EndpointMessages {
  /** Spanish summary of a 400, above the field messages. */
  invalid: string;
  /** Spanish text of a 503 (the lead could not be saved). */
  failure: string;
}

export interface FormDefinition<Schema extends z.ZodMiniObject = z.ZodMiniObject, Toasts extends string = never> {
  /** The form's accessible name. */
  label: string;
  /** The small heading above the page title, where the form has a page of its own. */
  eyebrow?: string;
  endpoint: string;
  schema: Schema;
  /** Questions are numbered ("1. ¿Cuál es tu rol…?"): every block but a card is one question. */
  numbered?: boolean;
  sections: readonly Section<keyof z.input<Schema> & string>[];
  submit: { label: string; busyLabel: string };
  /** The toasts of the form: `missing` (invalid answers), `failure` (not saved) and its own. */
  toasts: Record<'missing' | 'failure' | Toasts, Toast>;
  messages: EndpointMessages;
}

/** Checks a definition against its schema's keys at compile time. */
export function defineForm<Schema extends z.ZodMiniObject, Toasts extends string>(
  definition: FormDefinition<Schema, Toasts>,
): FormDefinition<Schema, Toasts> {
  return definition;
}

export const SUBMITTING = 'Enviando...';

/** The visitor's name: required everywhere. */
export function nameQuestion(label = 'Nombre'): TextQuestion<'name'> {
  return { kind: 'text', name: 'name', label, autoComplete: 'name' };
}

/** A WhatsApp number; the shared schema normalises it to +52. */
export function phoneQuestion(label = 'WhatsApp', hint = '10 dígitos.'): TextQuestion<'phone'> {
  return {
    kind: 'text',
    name: 'phone',
    label,
    hint,
    type: 'tel',
    inputMode: 'tel',
    autoComplete: 'tel',
    placeholder: '999 123 4567',
  };
}

/** An optional e-mail address. */
export function emailQuestion(): TextQuestion<'email'> {
  return {
    kind: 'text',
    name: 'email',
    label: 'Correo electrónico',
    type: 'email',
    inputMode: 'email',
    autoComplete: 'email',
    placeholder: 'nombre@correo.com',
  };
}

/** Every question of a form, in the order the visitor meets them. */
export function questionsOf(form: Pick<FormDefinition, 'sections'>): Question[] {
  return form.sections.flatMap((section) => [...section.questions]);
}

/** The schema of one field of the form. */
export function fieldSchema(form: Pick<FormDefinition, 'schema'>, name: string): z.ZodMiniType {
  const field = form.schema.shape[name];
  if (!field) throw new Error(`The form has no field "${name}" in its schema.`);
  return field as z.ZodMiniType;
}

/**
 * Required when the schema refuses the field left empty (an empty input is
 * not sent at all), or when a default answer is preselected (a radio group
 * with a checked answer cannot be left empty).
 */
export function isRequired(form: Pick<FormDefinition, 'schema'>, question: Question): boolean {
  if (question.kind !== 'text' && question.defaultValue !== undefined) return true;
  return !fieldSchema(form, question.name).safeParse(undefined).success;
}

/** The longest text the schema accepts for the field, for the input's `maxLength`. */
export function maxLengthOf(schema: z.core.$ZodType): number | undefined {
  const def = schema._zod.def as z.core.$ZodTypeDef & {
    in?: z.core.$ZodType;
    innerType?: z.core.$ZodType;
    options?: readonly z.core.$ZodType[];
  };
  switch (def.type) {
    case 'string': {
      const limits = (def.checks ?? [])
        .map((check) => check._zod.def as { check: string; maximum?: number })
        .flatMap((check) => (check.check === 'max_length' && check.maximum !== undefined ? [check.maximum] : []));
      return limits.length > 0 ? Math.min(...limits) : undefined;
    }
    case 'pipe':
      return def.in && maxLengthOf(def.in);
    case 'optional':
    case 'nullable':
    case 'default':
      return def.innerType && maxLengthOf(def.innerType);
    case 'union': {
      const lengths = (def.options ?? []).map(maxLengthOf).filter((length) => length !== undefined);
      return lengths.length > 0 ? Math.max(...lengths) : undefined;
    }
    default:
      return undefined;
  }
}

/** What a text input of the form may hold at most. */
export function inputLimit(form: Pick<FormDefinition, 'schema'>, name: string): number | undefined {
  return maxLengthOf(fieldSchema(form, name));
}
