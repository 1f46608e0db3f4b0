/**
 * The version of the privacy notice in force: the `updated` date of
 * src/content/legal/aviso-de-privacidad.md. Each lead stores it with the time
 * it was sent (issue #14). The content schema fails the build while the two
 * differ, so nobody changes the notice without changing what leads record.
 */
export const PRIVACY_NOTICE_VERSION = '2026-11-23';
