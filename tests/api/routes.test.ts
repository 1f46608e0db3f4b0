import { describe, expect, it } from 'vitest';
import { config as leadsConfig } from '../../netlify/functions/admin-leads.ts';
import { ADMIN_LEAD_PATHS } from '../../src/server/leads/kinds.ts';
import { loadFunctions } from '../../src/server/local/functions.ts';

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
