import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
/** A cached copy nobody has used for this long goes. */
const CACHE_DAYS = 14;

/** The compressed copies of `content`: brotli at its best quality and gzip at its best level. */
async function compress(content: Buffer): Promise<[Buffer, Buffer]> {
  return Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
      },
    }),
    gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
  ]);
}

/**
 * `compress`, kept by content in `cacheDir`: a file that did not change since
 * an earlier build (the editor's 6 MB bundle, most pages) is not compressed
 * again. Brotli at quality 11 took about a minute of CPU a build here, and
 * `npm test` builds twice (its own build and the one without the voice widget).
 */
async function compressCached(content: Buffer, cacheDir: string): Promise<[Buffer, Buffer]> {
  const key = path.join(cacheDir, createHash('sha256').update(content).digest('hex'));
  try {
    const copies = await Promise.all([readFile(`${key}.br`), readFile(`${key}.gz`)]);
    const now = new Date();
    await Promise.all([utimes(`${key}.br`, now, now), utimes(`${key}.gz`, now, now)]);
    return copies;
  } catch {
    const [br, gz] = await compress(content);
    // Written under a name of its own, then renamed: two builds at once never read half a copy.
    const partial = `${key}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await Promise.all([writeFile(`${partial}.br`, br), writeFile(`${partial}.gz`, gz)]);
    await Promise.all([rename(`${partial}.br`, `${key}.br`), rename(`${partial}.gz`, `${key}.gz`)]);
    return [br, gz];
  }
}

/** Removes the cached copies nobody has used for CACHE_DAYS. */
async function pruneCache(cacheDir: string): Promise<void> {
  const oldest = Date.now() - CACHE_DAYS * 24 * 60 * 60 * 1000;
  for (const name of await readdir(cacheDir)) {
    const file = path.join(cacheDir, name);
    const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: Date.now() }));
    if (mtimeMs < oldest) await rm(file, { force: true });
  }
}

/**
 * Writes a `.br` (brotli at its best quality) and a `.gz` beside every text
 * file of the build, which the local server sends as they are (srvx's
 * `encodings`): a phone on a weak signal gets about 15 % fewer bytes than
 * from compression on the fly, and the server spends no CPU on it
 * (decision 0023). Netlify compresses on its own CDN: skipped there. List
 * it last: it compresses the files as the integrations before it left them.
 * The copies are kept by content in Astro's cache directory
 * (`.cache/astro/precompress/`), so an unchanged file is compressed once.
 */
export function precompress(options: { skip: boolean }): AstroIntegration {
  let cacheDir = '';
  return {
    name: 'precompress',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = path.join(fileURLToPath(config.cacheDir), 'precompress');
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (options.skip) return;
        const root = fileURLToPath(dir);
        await mkdir(cacheDir, { recursive: true });
        let count = 0;
        // All at once: zlib's work runs on libuv's threads, so both cores compress.
        await Promise.all(
          (await filesUnder(root))
            .filter((file) => TEXT_FILES.test(file))
            .map(async (file) => {
              const content = await readFile(file);
              if (content.byteLength < MIN_BYTES) return;
              const [br, gz] = await compressCached(content, cacheDir);
              await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
              count++;
            }),
        );
        await pruneCache(cacheDir);
        logger.info(`Compressed ${count} files (.br, .gz)`);
      },
    },
  };
}
