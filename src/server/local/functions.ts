import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getConfig } from '../config.ts';
import type { Handler } from '../http/handler.ts';
import {
  checkRateLimitConfig,
  PlatformRateLimiter,
  platformRateLimited,
  type RateLimitConfig,
} from '../http/platform-rate-limit.ts';
import { PROJECT_ROOT } from './paths.ts';

export interface FunctionRoute {
  name: string;
  pattern: URLPattern;
  excluded: URLPattern[];
  handler: Handler;
  /**
   * The function's `config.rateLimit`, as Netlify applies it before the
   * function runs: the 429 to answer a request from `ip`, or null to call
   * the handler. Counts the request.
   */
  limit(ip: string): Response | null;
}

const FUNCTIONS_DIR = path.join(PROJECT_ROOT, 'netlify', 'functions');

/** What a function module says of itself, as Netlify reads it. */
export interface FunctionConfig {
  path?: string | string[];
  excludedPath?: string | string[];
  schedule?: string;
  rateLimit?: RateLimitConfig;
}

/** Every module of netlify/functions: its name, handler and `config`. */
export async function loadFunctions(
  directory = FUNCTIONS_DIR,
): Promise<{ name: string; handler: Handler; config: FunctionConfig | undefined }[]> {
  const files = (await readdir(directory)).filter((file) => /^[\w-]+\.ts$/.test(file)).sort();
  const modules = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(directory, file)).href)) as {
      default: Handler;
      config?: FunctionConfig;
    };
    modules.push({ name: path.basename(file, '.ts'), handler: module.default, config: module.config });
  }
  return modules;
}

/**
 * Loads every module of netlify/functions and routes its `config.path` (minus
 * `config.excludedPath`) to its default export, with its `config.rateLimit`
 * (unless `rateLimit` is false: PLATFORM_RATE_LIMIT=0), as Netlify does: the
 * local server runs the same code behind the same limits.
 */
export async function loadFunctionRoutes(
  directory = FUNCTIONS_DIR,
  { rateLimit = getConfig().platformRateLimit } = {},
): Promise<FunctionRoute[]> {
  // One limiter for every function: its keys name the function, and its memory bound is the server's.
  const limiter = new PlatformRateLimiter();
  const routes: FunctionRoute[] = [];
  for (const { name, handler, config } of await loadFunctions(directory)) {
    // A scheduled function has no public URL on Netlify; locally its work runs in-process.
    if (config?.schedule) continue;
    const paths = [config?.path ?? `/.netlify/functions/${name}`].flat();
    const excluded = [config?.excludedPath ?? []].flat().map((pathname) => new URLPattern({ pathname }));
    const rule = rateLimit ? checkRateLimitConfig(name, config?.rateLimit) : undefined;
    // Every path of a function shares its count, as on Netlify (the rule is the function's).
    const limit = (ip: string) => platformRateLimited(limiter, name, rule, ip);
    for (const pathname of paths) {
      routes.push({ name, pattern: new URLPattern({ pathname }), excluded, handler, limit });
    }
  }
  return routes;
}

/** Routes match on the path alone: each list remembers its answers for the paths it has seen (bounded). */
const matches = new WeakMap<readonly FunctionRoute[], Map<string, FunctionRoute | null>>();
const REMEMBERED_PATHS = 1000;

export function findRoute(routes: readonly FunctionRoute[], url: string): FunctionRoute | undefined {
  // Testing 50 URLPatterns took about 28 µs a request (issue #25); a path seen before costs a lookup.
  const pathname = new URL(url).pathname;
  let seen = matches.get(routes);
  if (!seen) {
    seen = new Map();
    matches.set(routes, seen);
  }
  const known = seen.get(pathname);
  if (known !== undefined) return known ?? undefined;
  const route = routes.find(
    (candidate) => candidate.pattern.test(url) && !candidate.excluded.some((pattern) => pattern.test(url)),
  );
  if (seen.size >= REMEMBERED_PATHS) seen.clear(); // a crawler's made-up paths cannot grow it
  seen.set(pathname, route ?? null);
  return route;
}
