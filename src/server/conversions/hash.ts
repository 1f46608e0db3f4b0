import { createHash } from 'node:crypto';

/**
 * What each ad platform is sent of a person, reduced to what it means and
 * hashed as that platform documents (issue #43, decision 0072): never in
 * clear. Meta and Google normalise differently (their docs' examples are the
 * unit tests): one function per platform and field.
 */
export const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** Meta: trimmed, lower-cased (developers.facebook.com, customer information parameters). */
export function metaEmail(email: string): string {
  return sha256(email.trim().toLowerCase());
}

/** Meta: digits only, with the country code, no leading zeros ("+52 999 123 4567" -> "529991234567"). */
export function metaPhone(phone: string): string {
  return sha256(phone.replace(/\D/g, '').replace(/^0+/, ''));
}

/** Meta's external_id: ours, lower-cased, hashed (recommended). */
export function metaExternalId(id: string): string {
  return sha256(id.trim().toLowerCase());
}

/**
 * Google (Data Manager's formatter): trimmed, lower-cased; for gmail.com and
 * googlemail.com the dots and a "+tag" of the name go.
 */
export function googleEmail(email: string): string {
  const normal = email.trim().toLowerCase();
  const [name = '', domain = ''] = normal.split('@');
  if (domain !== 'gmail.com' && domain !== 'googlemail.com') return sha256(normal);
  return sha256(`${name.split('+')[0]?.replaceAll('.', '')}@${domain}`);
}

/** Google: E.164 with its "+" ("+52 999 123 4567" -> "+529991234567"). */
export function googlePhone(phone: string): string {
  return sha256(`+${phone.replace(/\D/g, '').replace(/^0+/, '')}`);
}
