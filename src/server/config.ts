import { z } from 'zod';
import { normalizeAddress, type TrustProxy } from './http/client-address.ts';

/**
 * Server configuration, read from the environment and checked once.
 * Every variable is documented in README.md and .env.example.
 */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  DATABASE_DRIVER: z.enum(['pg', 'neon']).optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  NEON_WS_PROXY: z.string().min(1).optional(),
  LEAD_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  JWT_SECRET: z
    .string()
    .refine((value) => Buffer.byteLength(value) >= 32, 'must be at least 32 bytes')
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  NETLIFY: z.string().optional(),
  EXIT_WITH_PARENT: z.enum(['0', '1']).default('0'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context): TrustProxy => {
      const text = value?.trim() ?? '';
      if (text === '' || text === 'false') return false;
      if (text === 'loopback') return 'loopback';
      const addresses = text.split(',').map((entry) => normalizeAddress(entry));
      if (addresses.every((address) => address !== null)) return addresses as string[];
      context.addIssue({ code: 'custom', message: 'must be "loopback" or a comma-separated list of IP addresses' });
      return z.NEVER;
    }),
});

export interface ServerConfig {
  databaseUrl: string | undefined;
  databaseDriver: 'pg' | 'neon';
  databasePoolMax: number;
  neonWsProxy: string | undefined;
  /** Lead submissions allowed per IP and endpoint in 10 minutes; 0 turns the limit off. */
  leadRateLimit: number;
  /** Where the local server listens. */
  port: number;
  host: string;
  /** Secret of the administrators' session tokens; generated for local runs when absent. */
  jwtSecret: string | undefined;
  /** Production (NODE_ENV=production or on Netlify): no generated secrets, no defaults that hide a mistake. */
  production: boolean;
  /** Reverse proxies whose X-Forwarded-* headers the local server believes (none by default). */
  trustProxy: TrustProxy;
  /** How long the local server drains its connections on SIGTERM before closing the rest. */
  shutdownGraceMs: number;
  /** The local server stops when the process that started it is gone (tests, benchmarks). */
  exitWithParent: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseConfig(environment: Record<string, string | undefined>): ServerConfig {
  const result = environmentSchema.safeParse(environment);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join('; ')}`);
  }
  const env = result.data;
  const production = env.NODE_ENV === 'production' || env.NETLIFY === 'true';
  if (production && !env.DATABASE_URL) {
    throw new ConfigError('Invalid environment: DATABASE_URL is not set; production needs its PostgreSQL (e.g. Neon).');
  }
  return {
    databaseUrl: env.DATABASE_URL,
    databaseDriver: env.DATABASE_DRIVER ?? (runsOnNeon(env.DATABASE_URL, env.NETLIFY) ? 'neon' : 'pg'),
    databasePoolMax: env.DATABASE_POOL_MAX,
    neonWsProxy: env.NEON_WS_PROXY,
    leadRateLimit: env.LEAD_RATE_LIMIT,
    port: env.PORT,
    host: env.HOST,
    jwtSecret: env.JWT_SECRET,
    production,
    trustProxy: env.TRUST_PROXY,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    exitWithParent: env.EXIT_WITH_PARENT === '1',
  };
}

/** Netlify functions talk to Neon over WebSockets; everything else over TCP. */
function runsOnNeon(databaseUrl: string | undefined, netlify: string | undefined): boolean {
  if (netlify === 'true') return true;
  return databaseUrl ? new URL(databaseUrl).hostname.endsWith('.neon.tech') : false;
}

let cached: ServerConfig | undefined;

/** The configuration of this process, read on first use. */
export function getConfig(): ServerConfig {
  cached ??= parseConfig(process.env);
  return cached;
}

/** The database URL, or a clear error when it is missing. */
export function requireDatabaseUrl(config: ServerConfig = getConfig()): string {
  if (!config.databaseUrl) {
    throw new ConfigError('DATABASE_URL is not set: point it at PostgreSQL, or start the site with `npm start`.');
  }
  return config.databaseUrl;
}
