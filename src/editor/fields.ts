import type { z } from 'zod';
import { FIELD_LABELS } from '../data/schemas.ts';

/**
 * The editor's fields, derived from the zod schemas the build checks
 * (src/data/schemas.ts): labels and hints from their Spanish descriptions
 * (FIELD_LABELS for the copy's undescribed keys), limits (lengths, minimums,
 * list sizes, formats with the schema's own message) from their checks. One
 * source: a rule changed in the schema changes the editor's form.
 * decap-cms's field format: https://decapcms.org/docs/widgets/
 */

export interface EditorField {
  name: string;
  label: string;
  widget: 'string' | 'text' | 'markdown' | 'number' | 'select' | 'list' | 'object' | 'image' | 'hidden';
  hint?: string;
  required?: boolean;
  pattern?: [string, string];
  value_type?: 'int' | 'float';
  min?: number;
  max?: number;
  step?: number;
  options?: string[];
  fields?: EditorField[];
  field?: EditorField;
  summary?: string;
  label_singular?: string;
  collapsed?: boolean;
  allow_add?: boolean;
  choose_url?: boolean;
  media_folder?: string;
  public_folder?: string;
  media_library?: { config: { max_file_size: number } };
  /** A markdown field's preview sanitized before it is shown (Decap's option). */
  sanitize_preview?: boolean;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
  error?: (issue: unknown) => unknown;
}

type Def = {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string>;
  error?: (issue: unknown) => unknown;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (schema: z.ZodType) => (defOf(schema).checks ?? []).map((check) => check._zod.def);

/** "Superficie en m², por ejemplo 17.2" -> label "Superficie en m²", hint "Por ejemplo 17.2". */
export function labelAndHint(key: string, description: string | undefined): { label: string; hint?: string } {
  if (!description) return { label: FIELD_LABELS[key] ?? key };
  const split = /,\s*(por ejemplo .*)$|;\s*(.*)$|:\s*(.*)$/i.exec(description);
  if (!split) return { label: description };
  const rest = (split[1] ?? split[2] ?? split[3] ?? '').trim();
  return {
    label: description.slice(0, split.index).trim(),
    ...(rest ? { hint: `${rest.charAt(0).toUpperCase()}${rest.slice(1).replace(/[.…]+$/, '')}.` } : {}),
  };
}

function stringRules(schema: z.ZodType): Pick<EditorField, 'pattern' | 'hint'> & { max?: number } {
  let min: number | undefined;
  let max: number | undefined;
  let format: { pattern: string; message: string } | undefined;
  for (const check of checksOf(schema)) {
    if (check.check === 'min_length') min = check.minimum;
    if (check.check === 'max_length') max = check.maximum;
    if (check.check === 'length_equals') min = max = check.length;
    if (check.check === 'string_format') {
      const message = String(check.error?.({}) ?? '');
      if (check.pattern && message) format = { pattern: check.pattern.source, message };
      else if (check.format === 'email')
        format = { pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', message: 'no es un correo electrónico válido.' };
      else if (check.format === 'url')
        format = { pattern: '^https?://\\S+$', message: 'no es una dirección web válida: debe empezar con https://' };
    }
  }
  const limits = max !== undefined ? `Máximo ${max} caracteres.` : undefined;
  if (format && max !== undefined)
    return {
      pattern: [`^(?=[\\s\\S]{0,${max}}$)(?:${format.pattern})`, `${format.message} (máximo ${max} caracteres)`],
      max,
      ...(limits ? { hint: limits } : {}),
    };
  if (format) return { pattern: [format.pattern, format.message] };
  if (max !== undefined || (min ?? 0) > 1)
    return {
      pattern: [
        `^[\\s\\S]{${min ?? 0},${max ?? ''}}$`,
        max !== undefined
          ? `admite como máximo ${max} caracteres: acórtalo.`
          : `debe tener al menos ${min} caracteres.`,
      ],
      ...(max !== undefined ? { max } : {}),
      ...(limits ? { hint: limits } : {}),
    };
  return {};
}

const joinHints = (...hints: (string | undefined)[]) => hints.filter(Boolean).join(' ') || undefined;

/** The editor's field for `schema` under `key`. */
export function editorField(
  key: string,
  schema: z.ZodType,
  options: { image?: Partial<EditorField> } = {},
): EditorField {
  let inner = schema;
  let required = true;
  while (['nullable', 'optional', 'default'].includes(defOf(inner).type)) {
    required = false;
    inner = defOf(inner).innerType as z.ZodType;
  }
  const { label, hint } = labelAndHint(key, schema.description ?? inner.description);
  const base = { name: key, label, ...(required ? {} : { required: false }) };
  const def = defOf(inner);

  switch (def.type) {
    case 'string': {
      const rules = stringRules(inner);
      const long = (rules.max ?? 0) > 90 || key === 'text' || key === 'description' || key === 'subtitle';
      // The path is the editor's business: marketing picks or uploads a file.
      if (key === 'image')
        return {
          ...base,
          label: 'Imagen',
          widget: 'image',
          choose_url: false,
          hint: 'Una foto o ilustración .jpg, .png, .webp, .avif o .svg; la guarda junto a las demás.',
          ...options.image,
        };
      const { max: _max, hint: limitHint, ...rest } = rules;
      const fieldHint = joinHints(hint, limitHint);
      return { ...base, widget: long ? 'text' : 'string', ...rest, ...(fieldHint ? { hint: fieldHint } : {}) };
    }
    case 'number': {
      const int = checksOf(inner).some((check) => check.check === 'number_format');
      const field: EditorField = { ...base, widget: 'number', value_type: int ? 'int' : 'float' };
      for (const check of checksOf(inner)) {
        if (check.check === 'greater_than' && check.value !== undefined)
          field.min = check.inclusive ? check.value : check.value + (int ? 1 : 0.01);
        if (check.check === 'less_than' && check.value !== undefined)
          field.max = check.inclusive ? check.value : check.value - (int ? 1 : 0.01);
      }
      field.step = int ? 1 : 0.01;
      return hint ? { ...field, hint } : field;
    }
    case 'date': {
      // A date is written as the build reads it from a page's front matter (2026-11-24), with the schema's message.
      const message = String(def.error?.({}) ?? 'escribe la fecha como 2026-11-24 (año-mes-día).');
      return { ...base, widget: 'string', pattern: ['^\\d{4}-\\d{2}-\\d{2}$', message], ...(hint ? { hint } : {}) };
    }
    case 'enum':
      return {
        ...base,
        widget: 'select',
        options: Object.values(def.entries ?? {}),
        ...(hint ? { hint } : {}),
      };
    case 'array': {
      const element = def.element as z.ZodType;
      const field: EditorField = { ...base, widget: 'list', ...(hint ? { hint } : {}) };
      for (const check of checksOf(inner)) {
        if (check.check === 'min_length') field.min = check.minimum;
        if (check.check === 'max_length') field.max = check.maximum;
        if (check.check === 'length_equals') field.min = field.max = check.length;
      }
      if (field.min !== undefined && field.min === field.max) field.allow_add = false;
      if (defOf(element).type === 'object') {
        const fields = objectFields(element, options);
        const shown = fields.find((item) => item.name === 'name' || item.name === 'title')?.name;
        return { ...field, fields, ...(shown ? { summary: `{{fields.${shown}}}` } : {}), collapsed: true };
      }
      return { ...field, field: { ...editorField(key, element, options), label } };
    }
    case 'object':
      return { ...base, widget: 'object', fields: objectFields(inner, options), ...(hint ? { hint } : {}) };
    default:
      throw new Error(`El editor no sabe mostrar el campo "${key}" (${def.type}).`);
  }
}

/** The fields of an object schema, in its order. */
export function objectFields(schema: z.ZodType, options: { image?: Partial<EditorField> } = {}): EditorField[] {
  return Object.entries(defOf(schema).shape ?? {}).map(([key, field]) => editorField(key, field, options));
}
