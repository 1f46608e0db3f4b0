import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { filesUnder } from './build-files.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What is worth compressing: text. Images and fonts are compressed already. */
const TEXT_FILES = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes a `.br` (brotli at its best quality) and a `.gz` beside every text
 * file of the build, which the local server sends as they are (srvx's
 * `encodings`): a phone on a weak signal gets about 15 % fewer bytes than
 * from compression on the fly, and the server spends no CPU on it
 * (decision 0023). Netlify compresses on its own CDN: skipped there. List
 * it last: it compresses the files as the integrations before it left them.
 */
export function precompress(options: { skip: boolean }): AstroIntegration {
  return {
    name: 'precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        if (options.skip) return;
        const root = fileURLToPath(dir);
        let count = 0;
        for (const file of await filesUnder(root)) {
          if (!TEXT_FILES.test(file)) continue;
          const content = await readFile(file);
          if (content.byteLength < MIN_BYTES) continue;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
              },
            }),
            gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
          count++;
        }
        logger.info(`Compressed ${count} files (.br, .gz)`);
      },
    },
  };
}
