import { describe, expect, it } from 'vitest';
import { keptUserAgent } from './repository.ts';

describe('keptUserAgent', () => {
  it('keeps a browser’s User-Agent as it came', () => {
    const agent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    expect(keptUserAgent(agent)).toBe(agent);
  });

  it('drops what is not printable, bounds it to 512 characters, and keeps nothing of an empty one', () => {
    expect(keptUserAgent('Mozilla/5.0\t(X11)\u0000 é')).toBe('Mozilla/5.0(X11)');
    expect(keptUserAgent('a'.repeat(2000))).toHaveLength(512);
    expect(keptUserAgent('   ')).toBeNull();
    expect(keptUserAgent(null)).toBeNull();
  });
});
