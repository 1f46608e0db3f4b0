/**
 * The notice near the phone field that tells the visitor we answer by
 * WhatsApp (issue #27). A lead records the version its form showed
 * (`whatsapp_notice_version`, like the privacy notice's), and only such a
 * lead gets the instant first reply. The text is the quick quote's phone
 * hint (src/lib/forms/quick-quote.ts), held equal to it by
 * tests/api/whatsapp-first-reply.test.ts; it lives in the form's own module
 * so the public pages' JavaScript does not grow. A form that shows it is
 * listed in `forms`; a new text is a new version (a new date).
 */
export const WHATSAPP_NOTICE = {
  version: '2026-11-25',
  text: '10 dígitos; te escribimos por WhatsApp.',
  forms: ['quick-quotes'],
} as const;
