import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'netlify'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.astro'];

/** Every source file under src/ and netlify/, as a path relative to the repository. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(path.join(ROOT, directory), { withFileTypes: true })) {
      const relative = path.posix.join(directory, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (EXTENSIONS.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith('.d.ts')) {
        files.push(relative);
      }
    }
  };
  for (const source of SOURCES) walk(source);
  return files.sort();
}

/** The code of a file: an .astro file's frontmatter and <script> blocks, any other file whole. */
function code(file: string): string {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  if (!file.endsWith('.astro')) return text;
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  return [frontmatter, ...scripts].join('\n');
}

/**
 * The files a file imports, resolved: static imports and re-exports,
 * `import type` and `export type` (a circle by a type is still a circle: the
 * two files cannot be read, moved or owned apart), and `import()`.
 * Packages and virtual modules are left out: only relative paths are ours.
 */
function imports(file: string): string[] {
  const found = ts.preProcessFile(code(file), true, true).importedFiles.map(({ fileName }) => fileName);
  const resolved = new Set<string>();
  for (const specifier of found) {
    if (!specifier.startsWith('.')) continue;
    const target = resolve(path.posix.join(path.posix.dirname(file), specifier.split('?')[0] ?? ''));
    if (target) resolved.add(target);
  }
  return [...resolved];
}

function resolve(target: string): string | undefined {
  const candidates = [
    target,
    ...EXTENSIONS.map((extension) => target + extension),
    ...EXTENSIONS.map((extension) => path.posix.join(target, `index${extension}`)),
  ];
  return candidates.find(
    (candidate) => existsSync(path.join(ROOT, candidate)) && statSync(path.join(ROOT, candidate)).isFile(),
  );
}

/** The strongly connected components with more than one file (or a file importing itself): the circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    indices.set(file, index);
    lowest.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file) ?? 0, lowest.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file) ?? 0, indices.get(next) ?? 0));
      }
    }
    if (lowest.get(file) === indices.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!indices.has(file)) visit(file);
  return found.sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
}

/** The folder of src/server a file sits in (src/server/team/x.ts: team), none for the files at its top. */
function serverFolder(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'src' && parts[1] === 'server' && parts.length > 3 ? parts[2] : undefined;
}

/** Each pair of src/server folders that import each other, with one import each way as the evidence. */
function mutualFolders(graph: Map<string, string[]>): string[] {
  const edges = new Map<string, string>();
  for (const [file, targets] of graph) {
    const from = serverFolder(file);
    for (const target of targets) {
      const to = serverFolder(target);
      if (from && to && from !== to && !edges.has(`${from}>${to}`)) edges.set(`${from}>${to}`, `${file} -> ${target}`);
    }
  }
  const pairs: string[] = [];
  for (const [key, evidence] of edges) {
    const [from, to] = key.split('>');
    if ((from ?? '') < (to ?? '') && edges.has(`${to}>${from}`)) {
      pairs.push(`${from} <-> ${to}: ${evidence}; ${edges.get(`${to}>${from}`)}`);
    }
  }
  return pairs.sort();
}

describe('the import graph of src/ and netlify/', () => {
  const graph = new Map(sourceFiles().map((file) => [file, imports(file)]));

  it('reads the imports (a sanity check of the parser)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('netlify/functions/admin-contact.ts')?.length).toBeGreaterThan(0);
  });

  it('has no two folders of src/server importing each other (a shared service gets a home of its own)', () => {
    expect(mutualFolders(graph)).toEqual([]);
  });

  it('has no import circle, type-only imports included', () => {
    expect(circles(graph)).toEqual([]);
  });
});
