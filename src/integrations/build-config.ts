import { z } from 'zod';

/**
 * What the build reads from the environment, checked once (the running
 * server reads its own in src/server/config.ts). Blank counts as unset.
 */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export const buildEnvironmentSchema = z.object({
  SITE_URL: z.preprocess(
    blankIsUnset,
    z.url({ protocol: /^https?$/, error: 'SITE_URL debe ser una URL http:// o https://.' }).optional(),
  ),
  /** Netlify's deploy context: production, deploy-preview, branch-deploy, dev. */
  CONTEXT: z.preprocess(blankIsUnset, z.string().optional()),
  LAUNCH_CHECK: z.preprocess(
    blankIsUnset,
    z
      .enum(['strict', 'warn'], {
        error: (issue) => `LAUNCH_CHECK debe ser "strict" o "warn" (es "${String(issue.input)}").`,
      })
      .optional(),
  ),
});

export interface BuildConfig {
  siteUrl: string | undefined;
  context: string | undefined;
  launchCheck: 'strict' | 'warn' | undefined;
}

export function parseBuildConfig(env: Record<string, string | undefined>): BuildConfig {
  const parsed = buildEnvironmentSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('\n'));
  const { SITE_URL, CONTEXT, LAUNCH_CHECK } = parsed.data;
  return { siteUrl: SITE_URL, context: CONTEXT, launchCheck: LAUNCH_CHECK };
}

export function readBuildConfig(): BuildConfig {
  return parseBuildConfig(process.env);
}
