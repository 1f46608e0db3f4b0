/** A failure that retrying cannot fix (a channel turned off, a rejected token or template): `failed` at once. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}
