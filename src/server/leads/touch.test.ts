import { describe, expect, it } from 'vitest';
import { keptLandingPath } from './touch.ts';

describe('a landing path as kept', () => {
  it('keeps the path and the attribution’s parameters, never a signed link’s token', () => {
    expect(keptLandingPath('/cita?t=v1.firmado&utm_source=google&gclid=Cj0K#arriba')).toBe(
      '/cita?utm_source=google&gclid=Cj0K',
    );
    expect(keptLandingPath('/modelos')).toBe('/modelos');
    expect(keptLandingPath('/?')).toBe('/');
  });

  it('reads what a browser sends as a path, whatever it holds: a double slash is no host', () => {
    // An ad's final URL built as `{lpurl}/?utm_…` lands on `//?utm_…`: new URL() took it for a host and threw,
    // and every form of that visit failed with a 503.
    expect(keptLandingPath('//?utm_source=fb')).toBe('//?utm_source=fb');
    expect(keptLandingPath('//a b')).toBe('//a b');
    expect(keptLandingPath('//%zz')).toBe('//%zz');
    expect(keptLandingPath('/x?a=%zz&utm_campaign=%E0')).toBe('/x?utm_campaign=%EF%BF%BD');
    expect(keptLandingPath('http://otro.example/')).toBeNull();
    expect(keptLandingPath(null)).toBeNull();
  });
});
