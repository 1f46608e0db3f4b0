/**
 * Response headers of the site: the one source that the local server applies
 * and that the build writes to `dist/_headers` for Netlify.
 */

/** On every path: pages, assets and functions. */
export const EVERY_PATH_HEADERS: Readonly<Record<string, string>> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), geolocation=(), microphone=(self)',
};

/**
 * The opener policy of a page. Not on `/*`: /editor needs another value,
 * and a path matched by two `_headers` rules that set one header may get
 * both values joined ("same-origin, same-origin-allow-popups", which no
 * browser accepts) — Netlify documents no order between overlapping
 * patterns. So each page's own rule carries it (pageRules), and no two
 * rules that can match one path set the same header (toNetlifyHeadersFile).
 */
export const PAGE_OPENER_POLICY = { 'Cross-Origin-Opener-Policy': 'same-origin' } as const;

/** On every response of ours: pages and function answers. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { ...EVERY_PATH_HEADERS, ...PAGE_OPENER_POLICY };

export interface HeaderRule {
  /** A Netlify `_headers` path pattern: exact, or ending in `/*`. */
  path: string;
  headers: Readonly<Record<string, string>>;
}

/** Pages are revalidated on every visit, so a deploy shows at once; assets are fingerprinted. */
export const HTML_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/**
 * /editor's own policy (decision 0038): decap-cms compiles its config's
 * validators at run time ('unsafe-eval') and injects its styles
 * ('unsafe-inline'); it talks to GitHub through Netlify's sign-in. The
 * public pages and /admin keep their strict, hashed policy. This is the
 * deployed policy (dist/_headers), and the local server's: its /editor is the
 * deployed build's (GitHub), which never reaches this machine's ports.
 * `npm run editor` serves its own page with EDITOR_LOCAL_CSP. Decision 0051
 * says why 'unsafe-eval' and 'unsafe-inline' remain.
 */
export const EDITOR_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://avatars.githubusercontent.com https://raw.githubusercontent.com",
  "connect-src 'self' blob: data: https://api.github.com https://api.netlify.com https://raw.githubusercontent.com",
  "font-src 'self' data:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `npm run editor`'s policy (decision 0051): the deployed one, talking to
 * nothing but its own origin, where scripts/editor.ts answers the proxy's
 * requests itself (no GitHub, no other port of this machine).
 */
export const EDITOR_LOCAL_CSP = EDITOR_CSP.replace(/connect-src [^;]*/, "connect-src 'self' blob: data:").replace(
  /img-src [^;]*/,
  "img-src 'self' data: blob:",
);

const EDITOR_HEADERS = {
  'Content-Security-Policy': EDITOR_CSP,
  // Netlify's GitHub sign-in answers in a pop-up that must reach back to this window.
  'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
  'X-Robots-Tag': 'noindex',
};

/** /editor's rule: `/editor/*` matches /editor itself too, on Netlify and here (matches). */
export const EDITOR_PATH = '/editor';

export const HEADER_RULES: readonly HeaderRule[] = [
  { path: '/*', headers: EVERY_PATH_HEADERS },
  // Fingerprinted build output never changes under the same name.
  { path: '/_astro/*', headers: { 'Cache-Control': 'public, max-age=31536000, immutable' } },
  { path: `${EDITOR_PATH}/*`, headers: { ...EDITOR_HEADERS, 'Cache-Control': 'public, max-age=0, must-revalidate' } },
];

/**
 * Each page's Content-Security-Policy (with its script and style hashes) is
 * computed by Astro at build time and written by the Netlify adapter to
 * `.netlify/v1/config.json` (option staticHeaders); the local server reads the
 * same file. See pageHeaderRules.
 */
export const BUILD_HEADERS_FILE = '.netlify/v1/config.json';

/** The header rules the build wrote for Netlify (per-page CSP, asset caching). */
export function parseBuildHeaders(json: string): HeaderRule[] {
  const config = JSON.parse(json) as { headers?: { for: string; values: Record<string, string> }[] };
  return (config.headers ?? []).map((rule) => ({ path: rule.for, headers: rule.values }));
}

/** Headers of JSON answers from the functions. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
};

/** Netlify's matching: `/x/*` matches /x, /x/ and everything under it; other patterns, the path itself. */
export function matches(pattern: string, pathname: string): boolean {
  if (!pattern.endsWith('/*')) return pattern === pathname || `${pattern}/` === pathname;
  const base = pattern.slice(0, -2);
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** The headers the rules give a static path; later rules win. */
export function staticHeadersFor(
  pathname: string,
  rules: readonly HeaderRule[] = HEADER_RULES,
): Record<string, string> {
  return Object.assign({}, ...rules.filter((rule) => matches(rule.path, pathname)).map((rule) => rule.headers));
}

/**
 * A rule per page of the build (`/`, `/modelos`, `/admin/llamada`…): HTML
 * is revalidated on every visit, and the page keeps its opener to itself.
 * A page another rule already covers (/editor) keeps that rule's headers.
 */
export function pageRules(pagePaths: readonly string[], rules: readonly HeaderRule[] = HEADER_RULES): HeaderRule[] {
  return pagePaths
    .filter((pagePath) => !rules.some((rule) => rule.path !== '/*' && matches(rule.path, pagePath)))
    .map((pagePath) => ({
      path: pagePath,
      headers: { 'Cache-Control': HTML_CACHE_CONTROL, ...PAGE_OPENER_POLICY },
    }));
}

/** Two patterns some path matches both of (`/*` and `/editor/*`; `/editor/*` and `/editor`). */
function overlap(a: string, b: string): boolean {
  const sample = (pattern: string) => (pattern.endsWith('/*') ? pattern.slice(0, -2) || '/' : pattern);
  return matches(a, sample(b)) || matches(b, sample(a));
}

/**
 * The rules in Netlify's `_headers` file format. Refuses two rules that
 * can match one path and set the same header: Netlify may send both values
 * joined by a comma, an invalid policy (see PAGE_OPENER_POLICY).
 */
export function toNetlifyHeadersFile(rules: readonly HeaderRule[] = HEADER_RULES): string {
  rules.forEach((rule, index) => {
    for (const other of rules.slice(index + 1)) {
      if (!overlap(rule.path, other.path)) continue;
      const names = new Set(Object.keys(rule.headers).map((name) => name.toLowerCase()));
      const both = Object.keys(other.headers).filter((name) => names.has(name.toLowerCase()));
      if (both.length)
        throw new Error(
          `_headers: ${rule.path} and ${other.path} both set ${both.join(', ')} on the paths they share.`,
        );
    }
  });
  return rules
    .map((rule) =>
      [rule.path, ...Object.entries(rule.headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n'),
    )
    .join('\n\n')
    .concat('\n');
}
