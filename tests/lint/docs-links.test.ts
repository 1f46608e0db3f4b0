/**
 * The links of README.md and docs/ lead somewhere: every relative link names
 * a file or folder of the repository, and every `#anchor` into a Markdown
 * file names one of its headings (GitHub's slugs). Moving a section from
 * one page to another fails here until the links follow it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const pages = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    // The decisions' template links to the file a new decision will be.
    .filter((file) => file.endsWith('.md') && !file.endsWith('0000-template.md'))
    .map((file) => path.join('docs', file)),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const outsideCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of outsideCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = (heading ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

it('every relative link of README.md and docs/ leads to a file and, with #anchor, to a heading', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(path.join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!target || /^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      const [file = '', anchor] = target.split('#');
      const resolved = file ? path.resolve(ROOT, path.dirname(page), decodeURI(file)) : path.join(ROOT, page);
      if (!existsSync(resolved)) {
        broken.push(`${page}: ${target} (no such file)`);
      } else if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${page}: ${target} (no such heading)`);
      }
    }
  }
  expect(broken).toEqual([]);
});
