/**
 * docs/configuration.md and .env.example name every variable the schemas
 * read, and nothing else: the keys come from the zod schemas themselves
 * (src/server/config.ts, src/integrations/build-config.ts) and the `PUBLIC_*`
 * names from the code that reads them. A new variable fails here until it has
 * its row in the doc (under "The server" or "The build") and its line in
 * .env.example.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildEnvironmentSchema } from '../../src/integrations/build-config.ts';
import { environmentSchema } from '../../src/server/config.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function filesUnder(folder: string, pattern: RegExp): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(folder, file))
    .filter((file) => pattern.test(file) && statSync(path.join(ROOT, file)).isFile());
}

/** The rows of the doc's tables under the `## ` heading that starts with `heading`: each row's first cell's names and its cells. */
function docRows(heading: string): { names: string[]; cells: string[] }[] {
  const doc = read('docs/configuration.md');
  const start = doc.split('\n').findIndex((line) => line.startsWith(`## ${heading}`));
  if (start < 0) throw new Error(`docs/configuration.md has no "## ${heading}" section`);
  const lines = doc.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => line.startsWith('## '));
  return lines
    .slice(0, end < 0 ? undefined : end)
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, ''));
      return { names: [...(cells[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map(([, name]) => name as string), cells };
    });
}

const docNames = (heading: string) => new Set(docRows(heading).flatMap((row) => row.names));

/** Every `NAME=` (commented or not) of .env.example. */
const envExample = new Set(
  [...read('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name as string),
);

const serverKeys = new Set(Object.keys(environmentSchema.shape));
const buildKeys = new Set(Object.keys(buildEnvironmentSchema.shape));

/** `PUBLIC_*` variables Astro gives the pages, as the code reads them (`env.PUBLIC_…`, `import.meta.env.PUBLIC_…`). */
const publicKeys = new Set(
  filesUnder('src', /\.(ts|tsx|astro)$/)
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .flatMap((file) => [...read(file).matchAll(/\benv\.(PUBLIC_[A-Z0-9_]+)/g)].map(([, name]) => name as string)),
);

const siteKeys = new Set([...serverKeys, ...buildKeys, ...publicKeys]);
const missing = (from: Iterable<string>, within: Set<string>) => [...from].filter((name) => !within.has(name)).sort();

/** The schema's default of a variable, when it declares one (`.default(x)`, also before a `.transform`). */
function defaultOf(schema: z.ZodType): unknown {
  const def = schema.def as { type: string; defaultValue?: unknown; in?: z.ZodType };
  if (def.type === 'default') return def.defaultValue;
  if (def.type === 'pipe' && def.in) return defaultOf(def.in);
  return undefined;
}

describe('docs/configuration.md and .env.example', () => {
  it('finds the variables of both schemas and of the pages', () => {
    expect(serverKeys.size).toBeGreaterThan(30);
    expect(serverKeys).toContain('DATABASE_URL');
    expect(buildKeys).toContain('CONTEXT');
    expect(publicKeys).toContain('PUBLIC_VAPI_PUBLIC_KEY');
  });

  it('documents every variable of the server schema under "The server", and only those', () => {
    const documented = docNames('The server');
    expect(missing(serverKeys, documented), 'in src/server/config.ts, not in docs/configuration.md').toEqual([]);
    expect(missing(documented, serverKeys), 'in docs/configuration.md (The server), not in the schema').toEqual([]);
  });

  it('documents every variable of the build schema and every PUBLIC_* a page reads under "The build" (or "The server")', () => {
    const documented = docNames('The build');
    const both = new Set([...documented, ...docNames('The server')]);
    expect(missing([...buildKeys, ...publicKeys], both), 'read by the build, not in docs/configuration.md').toEqual([]);
    expect(
      missing(documented, new Set([...buildKeys, ...publicKeys])),
      'in docs/configuration.md (The build), read by no build schema or page',
    ).toEqual([]);
  });

  it('lists every variable of the schemas and pages in .env.example, and nothing the doc does not explain', () => {
    expect(missing(siteKeys, envExample), 'read by the site, not in .env.example').toEqual([]);
    const tools = docNames('Tools');
    expect(
      missing(envExample, new Set([...siteKeys, ...tools])),
      'in .env.example, in no schema and not in docs/configuration.md',
    ).toEqual([]);
  });

  it('documents tools variables that scripts and tests really read', () => {
    const code = [
      ...filesUnder('scripts', /\.ts$/),
      ...filesUnder('tests', /\.ts$/),
      ...filesUnder('src', /\.(ts|tsx|astro|mjs)$/),
      'astro.config.mjs',
    ]
      .filter((file) => !file.endsWith('configuration-doc.test.ts'))
      .map(read)
      .join('\n');
    const unread = [...docNames('Tools')].filter(
      (name) => siteKeys.has(name) || !new RegExp(`\\benv\\.${name}\\b`).test(code),
    );
    expect(unread, 'in docs/configuration.md (Tools), read by no script or test (or a schema variable)').toEqual([]);
  });

  it("gives each server variable's default as the schema declares it", () => {
    const rows = docRows('The server');
    const wrong = Object.entries(environmentSchema.shape).flatMap(([name, schema]) => {
      const value = defaultOf(schema as z.ZodType);
      if (value === undefined) return [];
      const row = rows.find((each) => each.names.includes(name));
      return row?.cells[1]?.includes(`\`${String(value)}\``) ? [] : [`${name}: \`${String(value)}\``];
    });
    expect(wrong, 'defaults missing from the Default column').toEqual([]);
  });
});
