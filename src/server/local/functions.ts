import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Handler } from '../http/handler.ts';
import { PROJECT_ROOT } from './paths.ts';

export interface FunctionRoute {
  name: string;
  pattern: URLPattern;
  excluded: URLPattern[];
  handler: Handler;
}

const FUNCTIONS_DIR = path.join(PROJECT_ROOT, 'netlify', 'functions');

/**
 * Loads every module of netlify/functions and routes its `config.path` (minus
 * `config.excludedPath`) to its default export, as Netlify does: the local
 * server runs the same code.
 */
export async function loadFunctionRoutes(directory = FUNCTIONS_DIR): Promise<FunctionRoute[]> {
  const files = (await readdir(directory)).filter((file) => /^[\w-]+\.ts$/.test(file)).sort();
  const routes: FunctionRoute[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(directory, file)).href)) as {
      default: Handler;
      config?: { path?: string | string[]; excludedPath?: string | string[]; schedule?: string };
    };
    // A scheduled function has no public URL on Netlify; locally its work runs in-process.
    if (module.config?.schedule) continue;
    const paths = [module.config?.path ?? `/.netlify/functions/${path.basename(file, '.ts')}`].flat();
    const excluded = [module.config?.excludedPath ?? []].flat().map((pathname) => new URLPattern({ pathname }));
    for (const pathname of paths) {
      routes.push({
        name: path.basename(file, '.ts'),
        pattern: new URLPattern({ pathname }),
        excluded,
        handler: module.default,
      });
    }
  }
  return routes;
}

export function findRoute(routes: readonly FunctionRoute[], url: string): FunctionRoute | undefined {
  return routes.find((route) => route.pattern.test(url) && !route.excluded.some((pattern) => pattern.test(url)));
}
