import type { AstroIntegration } from 'astro';
import { contentProblems, PROJECT_ROOT } from '../data/content-check.ts';
import { DataError } from '../data/problems.ts';
import { type StopBuild, stopBuild } from './stop-build.ts';

/**
 * Checks every data file and the legal pages before Astro reads them, so a
 * broken file (a price written as text, a trailing comma, a missing image, a
 * repeated model id, a gallery without its 17 images) stops `astro dev` and
 * `astro build` with every mistake listed at once, in Spanish, naming the
 * file, the entry and the field (or the line and column), and exit code 1:
 * no stack trace, and nothing else before it (it is the first integration).
 * `root` is the project's folder (the tests point it at a copy).
 */
export function contentCheck({ root = PROJECT_ROOT, ...stop }: { root?: string } & StopBuild = {}): AstroIntegration {
  return {
    name: 'content-check',
    hooks: {
      'astro:config:setup': () => {
        const problems = contentProblems(root);
        if (problems.length)
          stopBuild(`${new DataError(problems).message}\nLa compilación se detuvo: nada se publicó.`, stop);
      },
    },
  };
}
