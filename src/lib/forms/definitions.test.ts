import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { config as partnerFunction } from '../../../netlify/functions/partner-applications.ts';
import { config as quickQuoteFunction } from '../../../netlify/functions/quick-quotes.ts';
import { config as quoteRequestFunction } from '../../../netlify/functions/quote-requests.ts';
import EstimateForm from '../../components/forms/EstimateForm.tsx';
import PartnerForm from '../../components/forms/PartnerForm.tsx';
import PreFilterForm from '../../components/forms/PreFilterForm.tsx';
import QuickQuoteForm from '../../components/forms/QuickQuoteForm.tsx';
import { pages } from '../../data/copy.ts';
import { type FormDefinition, fieldSchema, inputLimit, isRequired, questionsOf } from './definition.ts';
import { estimateForm } from './estimate.ts';
import { LIMITS, PRIVACY_ACCEPTED_AT_FIELD, PRIVACY_VERSION_FIELD } from './fields.ts';
import { partnerForm } from './partner-application.ts';
import { preFilterForm } from './pre-filter.ts';
import { quickQuoteForm } from './quick-quote.ts';
import { quoteRequestMessages, quoteRequestSchema } from './quote-request.ts';

/**
 * Issue #15: each form is defined once (src/lib/forms/<form>.ts) and its
 * island renders from that definition. These tests hold the definition, the
 * schema the server checks with, the function's route and the island together.
 */
const FORMS: { name: string; form: FormDefinition; render(): string; route: unknown }[] = [
  {
    name: 'quick quote',
    form: quickQuoteForm,
    render: () => renderToStaticMarkup(createElement(QuickQuoteForm, { dialogId: 'quick-quote' })),
    route: quickQuoteFunction.path,
  },
  {
    name: 'pre-filter',
    form: preFilterForm,
    render: () => renderToStaticMarkup(createElement(PreFilterForm)),
    route: quoteRequestFunction.path,
  },
  {
    name: 'estimate',
    form: estimateForm,
    render: () => renderToStaticMarkup(createElement(EstimateForm)),
    route: quoteRequestFunction.path,
  },
  {
    name: 'partner evaluation',
    form: partnerForm,
    render: () =>
      renderToStaticMarkup(
        createElement(PartnerForm, {
          paymentLink: 'https://buy.stripe.com/test',
          chatLink: 'https://wa.me/529991234567',
        }),
      ),
    route: partnerFunction.path,
  },
];

/** The opening tag of the input, select or fieldset that carries the question (by name or by id). */
function controlOf(html: string, name: string, prefix: string): string | undefined {
  const byName = new RegExp(`<(input|select)[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0];
  if (byName?.startsWith('<select') || !byName?.includes('type="radio"')) return byName;
  // A radio group: required and invalid are said on its fieldset, which names the first radio's id.
  return new RegExp(`<fieldset[^>]*role="radiogroup"[^>]*>(?:(?!</fieldset>).)*id="${prefix}${name}"`, 's').exec(
    html,
  )?.[0];
}

const htmlText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

describe.each(FORMS)('the $name form', ({ form, render, route }) => {
  const html = render();
  const prefix = form === quickQuoteForm ? 'qq-' : '';

  it('posts to the route its function serves', () => {
    expect(route).toBe(form.endpoint);
    expect(html).toContain(`action="${form.endpoint}"`);
  });

  it('asks every question of its definition, with its label, required mark and length limit from the schema', () => {
    for (const question of questionsOf(form)) {
      const control = controlOf(html, question.name, prefix);
      expect(control, question.name).toBeDefined();
      expect(html, question.name).toContain(htmlText(question.label));
      const required = isRequired(form, question);
      expect(control?.includes('aria-required="true"'), `${question.name} required`).toBe(required);
      if (question.kind === 'text') {
        const limit = inputLimit(form, question.name);
        expect(limit, `${question.name} has a limit`).toBeGreaterThan(0);
        expect(control, question.name).toContain(`maxLength="${limit}"`);
      }
      if (question.kind !== 'text') {
        for (const option of question.options) expect(html).toContain(`value="${htmlText(option.value)}"`);
      }
    }
    expect(html).toContain(htmlText(form.submit.label));
  });

  it('accepts every option value it offers, and refuses a value it does not offer', () => {
    for (const question of questionsOf(form)) {
      if (question.kind === 'text') continue;
      const schema = fieldSchema(form, question.name);
      for (const option of question.options) {
        expect(schema.safeParse(option.value).success, `${question.name} = ${option.value}`).toBe(true);
      }
      expect(schema.safeParse('no-es-una-opcion').success, question.name).toBe(false);
    }
  });

  it('has a question for every field the visitor fills in', () => {
    const asked = new Set(questionsOf(form).map((question) => question.name));
    // Added by the browser, not typed: the privacy notice's version and the time of the press (issue #25).
    const hidden = [
      'source',
      'origin',
      'marketing',
      PRIVACY_VERSION_FIELD,
      PRIVACY_ACCEPTED_AT_FIELD,
      ...Object.keys(form.schema.shape).filter(isAttribution),
    ];
    const unasked = Object.keys(form.schema.shape).filter((name) => !asked.has(name) && !hidden.includes(name));
    expect(unasked).toEqual([]);
  });
});

function isAttribution(name: string): boolean {
  return (
    name.startsWith('utm_') ||
    name === 'referrer' ||
    name === 'landing_path' ||
    // The ad platforms' click ids (issue #43).
    ['gclid', 'gbraid', 'wbraid', 'fbc'].includes(name)
  );
}

describe('derived from the schema', () => {
  it('required: a name and a phone always; an e-mail never; a preselected radio group always', () => {
    const [name, phone, email] = questionsOf(quickQuoteForm);
    expect(name && isRequired(quickQuoteForm, name)).toBe(true);
    expect(phone && isRequired(quickQuoteForm, phone)).toBe(true);
    expect(email && isRequired(quickQuoteForm, email)).toBe(false);
    const levels = questionsOf(estimateForm).find((question) => question.name === 'levels');
    expect(levels && isRequired(estimateForm, levels)).toBe(true);
  });

  it('maxLength: the schema limits', () => {
    expect(inputLimit(quickQuoteForm, 'name')).toBe(LIMITS.name);
    expect(inputLimit(quickQuoteForm, 'phone')).toBe(LIMITS.phoneInput);
    expect(inputLimit(quickQuoteForm, 'email')).toBe(LIMITS.email);
    expect(inputLimit(partnerForm, 'municipality')).toBe(LIMITS.municipality);
    expect(inputLimit(estimateForm, 'terrain_size')).toBe(10);
  });

  it('the partner page promises as many questions as the form numbers', () => {
    const numbered = partnerForm.sections.filter((section) => section.style !== 'card').length;
    expect(pages.socios.intro).toContain(`Responde ${numbered} preguntas`);
  });
});

describe('the shared quote-request endpoint', () => {
  it('answers in the words of the form that sent the request', () => {
    expect(quoteRequestMessages({ source: 'prefiltro' })).toBe(preFilterForm.messages);
    expect(quoteRequestMessages({ source: 'estimacion' })).toBe(estimateForm.messages);
    expect(quoteRequestMessages({})).toBe(estimateForm.messages);
  });

  it('accepts both forms through one schema', () => {
    const visitor = { name: 'Ana', phone: '999 123 4567' };
    expect(quoteRequestSchema.safeParse({ ...visitor, source: 'estimacion' }).success).toBe(true);
    expect(
      quoteRequestSchema.safeParse({
        ...visitor,
        source: 'prefiltro',
        municipality: 'Mérida',
        land_option: 'tengo-terreno',
      }).success,
    ).toBe(true);
  });
});
