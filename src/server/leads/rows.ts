import { WHATSAPP_NOTICE } from '../../data/whatsapp-notice.ts';
import { ESTIMATE_FIXED } from '../../lib/forms/options.ts';
import type { PartnerApplication } from '../../lib/forms/partner-application.ts';
import type { QuickQuote } from '../../lib/forms/quick-quote.ts';
import type { QuoteRequest } from '../../lib/forms/quote-request.ts';
import { consentRecord } from './consent.ts';
import type { PartnerVerdict } from './partner-score.ts';
import { keptLandingPath } from './touch.ts';

/** Column name -> value, in the order they are inserted. */
export type Row = Record<string, string | number | boolean | null>;

/**
 * Where the visit came from, and what the person agreed to: the privacy
 * notice they saw when they pressed send, and when (bounded by the server's
 * clock, ./consent.ts), and the optional marketing consent.
 */
function attribution(input: QuickQuote | QuoteRequest | PartnerApplication): Row {
  const consent = consentRecord(input);
  return {
    privacy_version: consent.version,
    privacy_accepted_at: consent.acceptedAt,
    marketing_consent: input.marketing,
    utm_source: input.utm_source,
    utm_medium: input.utm_medium,
    utm_campaign: input.utm_campaign,
    utm_term: input.utm_term,
    utm_content: input.utm_content,
    referrer: input.referrer,
    landing_path: keptLandingPath(input.landing_path),
    gclid: input.gclid,
    gbraid: input.gbraid,
    wbraid: input.wbraid,
    fbc: input.fbc,
  };
}

export function quickQuoteRow(input: QuickQuote): Row {
  return {
    name: input.name,
    phone: input.phone,
    email: input.email,
    origin: input.origin,
    ...attribution(input),
    // The form says by its phone that we write by WhatsApp (src/data/whatsapp-notice.ts).
    whatsapp_notice_version: WHATSAPP_NOTICE.version,
  };
}

/** Maps both quote forms to `quote_requests` as docs/product.md §11.2 says. */
export function quoteRequestRow(input: QuoteRequest): Row {
  if (input.source === 'prefiltro') {
    return {
      source: input.source,
      name: input.name,
      phone: input.phone,
      state: input.state,
      municipality: input.municipality,
      has_land: input.land_option,
      need_land_help: input.timeline,
      house_size: input.objective,
      ...attribution(input),
    };
  }
  return {
    source: input.source,
    name: input.name,
    phone: input.phone,
    email: input.email,
    terrain_size: input.terrain_size,
    levels: input.levels,
    finishes: input.finishes,
    budget: input.budget,
    state: ESTIMATE_FIXED.state,
    municipality: ESTIMATE_FIXED.municipality,
    has_land: input.terrain_size === null ? 'no' : 'si',
    timeline: ESTIMATE_FIXED.timeline,
    objective: ESTIMATE_FIXED.objective,
    ...attribution(input),
  };
}

export function partnerApplicationRow(input: PartnerApplication, verdict: PartnerVerdict): Row {
  return {
    name: input.name,
    phone: input.phone,
    role: input.role,
    project_type: input.project_type,
    state: input.state,
    municipality: input.municipality,
    land_size: input.land_size,
    investment: input.investment,
    timeline: input.timeline,
    legal_documentation: input.legal_documentation,
    consultancy_payment: input.consultancy_payment,
    score: verdict.score,
    status: verdict.status,
    ...attribution(input),
  };
}
