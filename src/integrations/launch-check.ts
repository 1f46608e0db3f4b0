import type { AstroIntegration } from 'astro';
import { z } from 'zod';
import { DATA_FILES, PROJECT_ROOT, readJsonFile, readLegalTexts } from '../data/content-check.ts';
import { checkLaunch, launchMode, launchReport, launchSummary } from '../data/launch.ts';
import { modelSchema, siteSchema } from '../data/schemas.ts';
import { readBuildConfig } from './build-config.ts';
import { type StopBuild, stopBuild } from './stop-build.ts';

/**
 * Runs the launch check (src/data/launch.ts) when the site is built or served:
 * in Netlify's production context (or with LAUNCH_CHECK=strict) a placeholder
 * left stops the build with the whole list (exit code 1, no stack trace);
 * elsewhere (local runs, deploy previews) a short warning names what is left
 * and points at `npm run check:launch` for the details. Decision 0020. Comes
 * after contentCheck(), which makes sure site.json can be read and prints its
 * errors first. `root` is the project's folder (the tests point it at a copy).
 */
export function launchCheck({ root = PROJECT_ROOT, ...stop }: { root?: string } & StopBuild = {}): AstroIntegration {
  return {
    name: 'launch-check',
    hooks: {
      'astro:config:setup': ({ command, logger }) => {
        if (command !== 'build' && command !== 'dev') return;
        const mode = launchMode(readBuildConfig());
        // contentCheck() ran first: site.json reads and matches its schema.
        const read = readJsonFile(root, DATA_FILES.site);
        const site = siteSchema.parse('data' in read ? read.data : undefined);
        const models = readJsonFile(root, DATA_FILES.models);
        const catalogue = z
          .array(modelSchema)
          .safeParse('data' in models ? (models.data as { models?: unknown } | null)?.models : undefined);
        const problems = checkLaunch(site, readLegalTexts(root), catalogue.success ? catalogue.data : []);
        if (!problems.length) return;
        if (mode === 'strict') stopBuild(launchReport(problems), stop);
        else logger.warn(launchSummary(problems));
      },
    },
  };
}
