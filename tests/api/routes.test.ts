import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { config as leadsConfig } from '../../netlify/functions/admin-leads.ts';
import { ADMIN_LEAD_PATHS } from '../../src/server/leads/kinds.ts';
import { functionEntries, loadFunctions, readInSourceConfig } from '../../src/server/local/functions.ts';

/**
 * Issue #24, item 3: routes that say what they serve. Netlify documents no
 * precedence between two functions whose paths match one URL, so none may:
 * no function excludes another's paths, and no concrete URL of a function is
 * matched by another's pattern.
 */
const functions = (await loadFunctions()).filter(({ config }) => !config?.schedule);
const pathsOf = (config: { path?: string | string[] } | undefined) => [config?.path ?? []].flat();

/** A concrete URL of a path: each `:name` a UUID, each `*` a segment. */
const sample = (pathname: string) =>
  pathname.replaceAll(/:[A-Za-z]\w*/g, '0b9f4a1e-6c1d-4c55-9d1e-2f3a4b5c6d7e').replaceAll('*', 'algo');

describe('the functions’ routes', () => {
  it('have no exclusion lists', () => {
    expect(functions.filter(({ config }) => config?.excludedPath !== undefined).map(({ name }) => name)).toEqual([]);
  });

  it('never share a URL: no sample URL of one function is matched by another’s pattern', () => {
    const clashes: string[] = [];
    for (const owner of functions) {
      for (const url of pathsOf(owner.config).map(sample)) {
        for (const other of functions) {
          if (other === owner) continue;
          const matching = pathsOf(other.config).find((pathname) =>
            new URLPattern({ pathname }).test({ pathname: url }),
          );
          if (matching) clashes.push(`${url} (${owner.name}) also matches ${matching} (${other.name})`);
        }
      }
    }
    expect(clashes).toEqual([]);
  });

  it('catch what they must: the contacts’ and calls’ exports are their resource’s, not another function’s', () => {
    const owner = (url: string) =>
      functions.find(({ config }) =>
        pathsOf(config).some((pathname) => new URLPattern({ pathname }).test({ pathname: url })),
      )?.name;
    expect(owner('/api/admin/contacts/export.csv')).toBe('admin-contact');
    expect(owner('/api/admin/calls/export.csv')).toBe('admin-calls');
    expect(owner('/api/admin/quick-quotes/export.csv')).toBe('admin-leads');
    expect(owner('/api/admin/desconocido')).toBeUndefined();
  });

  it('list every registered lead kind’s paths literally in admin-leads, as the registry derives them', () => {
    expect(leadsConfig.path).toEqual(ADMIN_LEAD_PATHS);
  });
});

describe('the local server’s reading of a function’s config without importing it', () => {
  it('gives every function the config its module exports', async () => {
    const everyOne = await loadFunctions();
    const read = await functionEntries();
    expect(read.map(({ name, config }) => ({ name, config }))).toEqual(
      everyOne.map(({ name, config }) => ({ name, config })),
    );
    // And reads each from its source: no module is imported to route it.
    const directory = path.resolve(import.meta.dirname, '../../netlify/functions');
    for (const { name, config } of everyOne) {
      expect(readInSourceConfig(await readFile(path.join(directory, `${name}.ts`), 'utf8')), name).toEqual(config);
    }
  });

  it('reads literals only: an expression is null (the module is imported), no config is undefined', () => {
    expect(
      readInSourceConfig(
        "export const config: Config = { path: ['/a', '/b/:id'], rateLimit: { windowLimit: 3, aggregateBy: ['ip'] }, };",
      ),
    ).toEqual({ path: ['/a', '/b/:id'], rateLimit: { windowLimit: 3, aggregateBy: ['ip'] } });
    expect(readInSourceConfig("export const config = { path: '/a\\\\-b' };")).toEqual({ path: '/a\\-b' });
    expect(readInSourceConfig('export const config: Config = { path: PATHS };')).toBeNull();
    expect(readInSourceConfig("export const config: Config = { path: '/a' + suffix };")).toBeNull();
    expect(readInSourceConfig("export const config: Config = { ...base, path: '/a' };")).toBeNull();
    expect(readInSourceConfig('export default async () => new Response();')).toBeUndefined();
  });
});
