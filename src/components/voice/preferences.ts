/**
 * What the voice widget remembers on the visitor's device (the privacy
 * notice says so): that they accepted an automated, recorded call, and
 * whether they want captions. Storage may be off: then it asks each time.
 */
const CONSENT_KEY = 'voiceConsent';
const CAPTIONS_KEY = 'voiceCaptions';
/** Bumped when the consent line says something new: everyone is asked again. */
export const CONSENT_VERSION = '2026-11-23';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or a policy: the choice lasts for this page only.
  }
}

export const hasConsent = (): boolean => read(CONSENT_KEY) === CONSENT_VERSION;
export const rememberConsent = (): void => write(CONSENT_KEY, CONSENT_VERSION);

/** Captions: the visitor's last choice; by default on, except on phones (the screen is small). */
export function captionsWanted(phone: boolean): boolean {
  const stored = read(CAPTIONS_KEY);
  return stored === null ? !phone : stored === 'on';
}
export const rememberCaptions = (on: boolean): void => write(CAPTIONS_KEY, on ? 'on' : 'off');
