import { readdir, readFile } from 'node:fs/promises';
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

/** Every module of netlify/functions: its name, handler and `config` (each module imported). */
export async function loadFunctions(
  directory = FUNCTIONS_DIR,
): Promise<{ name: string; handler: Handler; config: FunctionConfig | undefined }[]> {
  const modules = [];
  for (const { name, file } of await functionFiles(directory)) {
    const module = await importFunction(file);
    modules.push({ name, handler: module.default, config: module.config });
  }
  return modules;
}

interface FunctionModule {
  default: Handler;
  config?: FunctionConfig;
}

const importFunction = (file: string): Promise<FunctionModule> => import(pathToFileURL(file).href);

async function functionFiles(directory: string): Promise<{ name: string; file: string }[]> {
  const files = (await readdir(directory)).filter((file) => /^[\w-]+\.ts$/.test(file)).sort();
  return files.map((file) => ({ name: path.basename(file, '.ts'), file: path.join(directory, file) }));
}

/**
 * Every function's name, `config` and a handler that imports its module on the
 * first request. The config is read from the source as Netlify reads it, a
 * literal (readInSourceConfig); a module whose config is not one is imported
 * at once. A server answering three endpoints loads three modules, not 54
 * (half a second of CPU at every start; the API tests start eighty servers).
 */
export async function functionEntries(
  directory = FUNCTIONS_DIR,
): Promise<{ name: string; handler: Handler; config: FunctionConfig | undefined }[]> {
  const entries = [];
  for (const { name, file } of await functionFiles(directory)) {
    const config = readInSourceConfig(await readFile(file, 'utf8'));
    if (config === null) {
      const module = await importFunction(file);
      entries.push({ name, handler: module.default, config: module.config });
      continue;
    }
    let loading: Promise<FunctionModule> | undefined;
    const handler: Handler = async (request, context) => {
      loading ??= importFunction(file);
      return (await loading).default(request, context);
    };
    entries.push({ name, handler, config });
  }
  return entries;
}

/**
 * The `export const config = { … }` of a function's source as a value, when it
 * is a literal of strings, numbers, booleans, arrays and objects (what
 * Netlify's own build reads statically); undefined without one, null when it
 * is anything else (an expression the module must run to know).
 */
export function readInSourceConfig(source: string): FunctionConfig | undefined | null {
  const start = /^export const config(?:\s*:\s*\w+)?\s*=\s*/m.exec(source);
  if (!start) return undefined;
  const tokens = /\s*(?:([{}[\],:])|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|(-?\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*))/y;
  tokens.lastIndex = start.index + start[0].length;
  type Token = { punct?: string; text?: string; number?: number; word?: string };
  const next = (): Token | null => {
    const match = tokens.exec(source);
    if (!match) return null;
    if (match[1]) return { punct: match[1] };
    const quoted = match[2] ?? match[3];
    if (quoted !== undefined) return { text: quoted.replace(/\\(.)/g, '$1') };
    if (match[4]) return { number: Number(match[4]) };
    return { word: match[5] };
  };
  const fail = Symbol('not a literal');
  const value = (token: Token | null): unknown => {
    if (!token) return fail;
    if (token.text !== undefined) return token.text;
    if (token.number !== undefined) return token.number;
    if (token.word === 'true' || token.word === 'false') return token.word === 'true';
    if (token.punct === '[') {
      const items: unknown[] = [];
      for (let item = next(); item?.punct !== ']'; item = next()) {
        const parsed = value(item);
        if (parsed === fail) return fail;
        items.push(parsed);
        const after = next();
        if (after?.punct === ']') return items;
        if (after?.punct !== ',') return fail;
      }
      return items;
    }
    if (token.punct === '{') {
      const object: Record<string, unknown> = {};
      for (let key = next(); key?.punct !== '}'; key = next()) {
        const name = key?.word ?? key?.text;
        if (name === undefined || next()?.punct !== ':') return fail;
        const parsed = value(next());
        if (parsed === fail) return fail;
        object[name] = parsed;
        const after = next();
        if (after?.punct === '}') return object;
        if (after?.punct !== ',') return fail;
      }
      return object;
    }
    return fail;
  };
  const config = value(next());
  const end = /\s*;/y;
  end.lastIndex = tokens.lastIndex;
  if (config === fail || typeof config !== 'object' || Array.isArray(config) || !end.test(source)) return null;
  return config as FunctionConfig;
}

/**
 * Routes every function's `config.path` (minus `config.excludedPath`) to its
 * default export, imported on its first request (functionEntries), with its
 * `config.rateLimit` (unless `rateLimit` is false: PLATFORM_RATE_LIMIT=0), as
 * Netlify does: the local server runs the same code behind the same limits.
 */
export async function loadFunctionRoutes(
  directory = FUNCTIONS_DIR,
  { rateLimit = getConfig().platformRateLimit } = {},
): Promise<FunctionRoute[]> {
  // One limiter for every function: its keys name the function, and its memory bound is the server's.
  const limiter = new PlatformRateLimiter();
  const routes: FunctionRoute[] = [];
  for (const { name, handler, config } of await functionEntries(directory)) {
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
