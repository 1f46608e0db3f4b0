import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Header, parseAllHeaders } from '@netlify/headers-parser';
import { describe, expect, it } from 'vitest';
import {
  HEADER_RULES,
  type HeaderRule,
  pageRules,
  SECURITY_HEADERS,
  staticHeadersFor,
  toNetlifyHeadersFile,
} from './headers.ts';

/** dist/_headers for these pages, read by Netlify's own parser (its path patterns as it matches them). */
async function netlifyRulesFor(rules: readonly HeaderRule[]): Promise<Header[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'headers-'));
  try {
    writeFileSync(path.join(dir, '_headers'), toNetlifyHeadersFile(rules));
    const { headers, errors } = await parseAllHeaders({
      headersFiles: [path.join(dir, '_headers')],
      configHeaders: [],
      minimal: false,
    });
    expect(errors).toEqual([]);
    return headers as Header[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PAGES = ['/', '/modelos', '/admin', '/admin/llamada', '/auth/invitacion', '/editor'];
const PATHS = [...PAGES, '/editor/', '/editor/editor.js', '/editor/preview.css', '/_astro/x.css', '/no-existe'];

describe("dist/_headers for Netlify's overlapping path rules", () => {
  it('sets each header on a path from one rule only, so no value is joined with another', async () => {
    const rules = await netlifyRulesFor([...HEADER_RULES, ...pageRules(PAGES)]);
    for (const pathname of PATHS) {
      const matching = rules.filter((rule) => rule.forRegExp.test(pathname));
      const names = matching.flatMap((rule) => Object.keys(rule.values).map((name) => name.toLowerCase()));
      expect(names.length, pathname).toBe(new Set(names).size);
    }
  });

  it('gives /editor one opener policy, its own, and every page its strict one', async () => {
    const rules = await netlifyRulesFor([...HEADER_RULES, ...pageRules(PAGES)]);
    const opener = (pathname: string) =>
      rules
        .filter((rule) => rule.forRegExp.test(pathname))
        .flatMap((rule) =>
          Object.entries(rule.values)
            .filter(([name]) => name.toLowerCase() === 'cross-origin-opener-policy')
            .map(([, value]) => value),
        );
    for (const pathname of ['/editor', '/editor/', '/editor/editor.js'])
      expect(opener(pathname), pathname).toEqual(['same-origin-allow-popups']);
    for (const pathname of PAGES.filter((page) => page !== '/editor'))
      expect(opener(pathname), pathname).toEqual(['same-origin']);
    // The local server applies the same rules: the same single value.
    expect(staticHeadersFor('/editor')['Cross-Origin-Opener-Policy']).toBe('same-origin-allow-popups');
  });

  it('refuses to write two overlapping rules that set one header', () => {
    const before = [
      { path: '/*', headers: SECURITY_HEADERS },
      { path: '/editor', headers: { 'Cross-Origin-Opener-Policy': 'same-origin-allow-popups' } },
    ];
    expect(() => toNetlifyHeadersFile(before)).toThrow(
      '_headers: /* and /editor both set Cross-Origin-Opener-Policy on the paths they share.',
    );
  });
});
