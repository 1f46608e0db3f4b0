import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { buildEditor } from '../editor/build.ts';
import { readBuildConfig } from './build-config.ts';

/**
 * Adds /editor (decap-cms over src/data) to the build's output, built apart
 * from Astro's pages: its own bundle and CSP, never imported by a public page
 * or the admin panel. On Netlify it commits to the repository Netlify builds
 * (REPOSITORY_URL, BRANCH), with Netlify's GitHub sign-in. Decision 0038.
 */
export function editor(): AstroIntegration {
  return {
    name: 'editor',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const repo = /github\.com[/:]([^/]+\/[^/.]+)/.exec(process.env.REPOSITORY_URL ?? '')?.[1];
        const { siteUrl } = readBuildConfig();
        const { bytes } = await buildEditor(fileURLToPath(dir), {
          ...(repo ? { repo } : {}),
          branch: process.env.BRANCH ?? 'main',
          ...(siteUrl ? { siteUrl } : {}),
        });
        logger.info(`Wrote /editor (${(bytes / 1e6).toFixed(1)} MB of JavaScript, loaded only there)`);
      },
    },
  };
}
