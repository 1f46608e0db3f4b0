/**
 * The version of the privacy notice in force: the `updated` date of
 * src/content/legal/aviso-de-privacidad.md. Each lead stores it with the time
 * it was sent (issue #14). The content schema fails the build while the two
 * differ, so nobody changes the notice without changing what leads record.
 */
export const PRIVACY_NOTICE_VERSION = '2026-11-23';

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
