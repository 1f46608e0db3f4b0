import { checkLaunchFiles } from '../../data/launch-files.ts';
import type { ServerConfig } from '../config.ts';
import { logJson } from '../log.ts';
import { PROJECT_ROOT } from './paths.ts';

/** Why the local server refuses to start: the site still has launch placeholders (the message lists them, in Spanish). */
export class LaunchNotReady extends Error {
  override name = 'LaunchNotReady';
}

/**
 * The launch check at the local server's start (decision 0033): the build
 * only fails by itself in Netlify's production context, so a site built
 * elsewhere with placeholders would otherwise go live. The server checks the
 * data of its checkout (what `npm start` builds from; it rebuilds when they
 * change): with `LAUNCH_CHECK=strict`, or in production (`NODE_ENV=production`)
 * when it is unset, a placeholder left stops the start with the Spanish list;
 * `LAUNCH_CHECK=warn` lets a production server start on purpose and logs the
 * list. Outside production, unset, nothing is checked (the build warned).
 */
export function checkLaunchAtStart(
  config: Pick<ServerConfig, 'production' | 'launchCheck'>,
  root = PROJECT_ROOT,
): void {
  const mode = config.launchCheck ?? (config.production ? 'strict' : undefined);
  if (!mode || (mode === 'warn' && !config.production)) return;
  const { ready, report } = checkLaunchFiles(root);
  if (ready) return;
  if (mode === 'strict') {
    throw new LaunchNotReady(
      `${report}\nEl servidor no arranca en producción con datos de ejemplo. Para arrancarlo así a propósito: LAUNCH_CHECK=warn.`,
    );
  }
  logJson('warn', { event: 'launch_placeholders', report });
}
