import { describe, expect, it } from 'vitest';
import { googleEmail, googlePhone, metaEmail, metaPhone, sha256 } from './hash.ts';

/** The platforms' own published examples (decision 0072): inputs and the SHA-256 they document. */
describe('hashing as each platform documents it', () => {
  it('Meta: e-mail trimmed and lower-cased, phone as digits with the country code', () => {
    expect(metaEmail(' John_Smith@gmail.com ')).toBe(
      '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f',
    );
    expect(metaPhone('+1 (650) 555-1212')).toBe('e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176');
    expect(metaPhone('+1 (616) 954-78 88')).toBe('bb2fa2e6d2cea4746530c99686d0c7886ab2019875dca2d7e9e171c0e6ada00d');
    expect(metaPhone('01(650)123-4567')).toBe('1f41a6876308cc581e7c096db4b342524d51f06f1df35537e30859e3956b5e89');
    // Ours: stored E.164, sent as its digits.
    expect(metaPhone('+529991234567')).toBe(sha256('529991234567'));
  });

  it('Google: gmail without dots or +tag, phone in E.164 with its +', () => {
    expect(googleEmail('alexz@example.com')).toBe('509e933019bb285a134a9334b8bb679dff79d0ce023d529af4bd744d47b4fd8a');
    expect(googleEmail('john.smith@EXAMPLE.COM')).toBe(
      '8e621e3d0368631d263d07a351fa8d34fba0d17c15fbcdec11a5f58008d022a0',
    );
    expect(googleEmail('Cloudy.SanFrancisco+shopping@gmail.com')).toBe(sha256('cloudysanfrancisco@gmail.com'));
    expect(googleEmail('jefferson.Loves.hiking@gmail.com')).toBe(sha256('jeffersonloveshiking@gmail.com'));
    expect(googlePhone('1 800 555 0100')).toBe('fb4f73a6ec5fdb7077d564cdd22c3554b43ce49168550c3b12c547b78c517b30');
    expect(googlePhone('+18005550100')).toBe('fb4f73a6ec5fdb7077d564cdd22c3554b43ce49168550c3b12c547b78c517b30');
  });
});
