import type { AstroIntegration } from 'astro';
import { DATA_FILES, PROJECT_ROOT, readJsonFile, readLegalTexts } from '../data/content-check.ts';
import { checkLaunch, launchMode, launchReport } from '../data/launch.ts';
import { siteSchema } from '../data/schemas.ts';
import { readBuildConfig } from './build-config.ts';

/**
 * Runs the launch check (src/data/launch.ts) when the site is built or served:
 * in Netlify's production context (or with LAUNCH_CHECK=strict) a placeholder
 * left fails the build; elsewhere (local runs, deploy previews) the same list
 * is only a warning. Decision 0020. Comes after contentCheck(), which makes
 * sure site.json can be read. `root` is the project's folder (the tests point
 * it at a copy).
 */
export function launchCheck({ root = PROJECT_ROOT }: { root?: string } = {}): AstroIntegration {
  return {
    name: 'launch-check',
    hooks: {
      'astro:config:setup': ({ command, logger }) => {
        if (command !== 'build' && command !== 'dev') return;
        const mode = launchMode(readBuildConfig());
        // contentCheck() ran first: site.json reads and matches its schema.
        const read = readJsonFile(root, DATA_FILES.site);
        const site = siteSchema.parse('data' in read ? read.data : undefined);
        const problems = checkLaunch(site, readLegalTexts(root));
        if (!problems.length) return;
        const report = launchReport(problems);
        if (mode === 'strict') throw new Error(report);
        logger.warn(
          `${report}\nEn producción (CONTEXT=production en Netlify, o LAUNCH_CHECK=strict) esto detiene la compilación.`,
        );
      },
    },
  };
}
