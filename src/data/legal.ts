/**
 * Every version of the privacy notice ever published, oldest first: the
 * `updated` dates of src/content/legal/aviso-de-privacidad.md. A lead records
 * the version the visitor saw when they pressed send (issue #25), and a
 * request can wait in their browser's outbox for up to 7 days across a
 * change of the notice, so the server accepts any version listed here and
 * nothing else. Never remove one; add the new date at the end.
 */
export const PRIVACY_NOTICE_VERSIONS = ['2026-11-23', '2026-11-24', '2026-11-29', '2026-11-30'] as const;

export type PrivacyNoticeVersion = (typeof PRIVACY_NOTICE_VERSIONS)[number];

/**
 * The version in force: the last of the list. The content schema fails the
 * build while it differs from the notice's `updated` date, so nobody changes
 * the notice without changing what leads record.
 */
export const PRIVACY_NOTICE_VERSION = PRIVACY_NOTICE_VERSIONS[
  PRIVACY_NOTICE_VERSIONS.length - 1
] as PrivacyNoticeVersion;

/**
 * What the legal pages' text may leave to the page: `{email}` (the page's
 * contact address, as a mail link) and `{domicilio}` (site.json's
 * legal.address), so each fact has one source. The content check refuses any
 * other `{…}`.
 */
export const LEGAL_TOKENS = ['email', 'domicilio'] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A legal page's rendered HTML with its tokens filled in. */
export function fillLegalTokens(html: string, facts: { email: string; address: string }): string {
  const email = escapeHtml(facts.email);
  return html
    .replaceAll('{email}', `<a href="mailto:${email}">${email}</a>`)
    .replaceAll('{domicilio}', escapeHtml(facts.address));
}
