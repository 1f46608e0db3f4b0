// @ts-check
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { PROJECT_ROOT, readJsonFile } from './src/data/content-check.ts';
import { readBuildConfig } from './src/integrations/build-config.ts';
import { contentCheck } from './src/integrations/content-check.ts';
import { editor } from './src/integrations/editor.ts';
import { hydrateOnInteraction } from './src/integrations/hydrate-on-interaction.ts';
import { islandPreload } from './src/integrations/island-preload.ts';
import { launchCheck } from './src/integrations/launch-check.ts';
import { nearScreenModules } from './src/integrations/near-screen-module.ts';
import { netlifyHeaders } from './src/integrations/netlify-headers.ts';
import { pageScript } from './src/integrations/page-script.ts';
import { precompress } from './src/integrations/precompress.ts';
import { staticNetlify } from './src/integrations/static-netlify.ts';

// Read without its schema: contentCheck() reports a broken site.json in Spanish.
const siteFile = readJsonFile(PROJECT_ROOT, 'src/data/site.json');
const siteFacts = /** @type {{ siteUrl?: string }} */ ('data' in siteFile ? siteFile.data : {});

const buildConfig = readBuildConfig();

export default defineConfig({
  site: buildConfig.siteUrl ?? siteFacts.siteUrl,
  output: 'static',
  // The build's cache, out of node_modules: its AVIF renderings of our pictures are committed
  // (.gitignore), so a fresh clone (CI, a new machine) does not spend a minute of CPU encoding them
  // again (decision 0091). The rest of it (WebP, the compressed copies, the content store) stays local.
  cacheDir: './.cache/astro',
  trailingSlash: 'never',
  build: { format: 'file' },
  // staticHeaders: each page's CSP (with its hashes) also goes out as a header on Netlify.
  // staticNetlify: the adapter without its catch-all server function (decision 0015).
  adapter: staticNetlify({ imageCDN: false, staticHeaders: true }),
  // contentCheck: every data file, in Spanish, before Astro reads them; launchCheck: placeholders
  // left fail Netlify's production build and only warn elsewhere (decision 0020). pageScript:
  // src/scripts/site.ts inline on every page; islandPreload: each island's module graph, fetched
  // at once at its first touch; precompress: .br and .gz beside the build's text
  // files for the local server, not on Netlify (CONTEXT set), whose CDN compresses (decision 0023).
  integrations: [
    contentCheck(),
    launchCheck(),
    react(),
    hydrateOnInteraction(),
    pageScript(),
    // Loaded when its element comes near the screen, with no script request in the page (decision 0031).
    nearScreenModules({ 'gallery-swiper': 'src/pages/_components/modelos/gallery-swiper.ts' }),
    // /editor: decap-cms over src/data, its own bundle and CSP (decision 0038).
    editor(),
    netlifyHeaders(),
    islandPreload(),
    precompress({ skip: buildConfig.context !== undefined }),
  ],
  // Our own illustrations are SVG; the build rasterises them to AVIF/WebP.
  image: { dangerouslyProcessSVG: true },
  security: {
    csp: {
      // Every page: our own origin only. The public pages add the voice platform and
      // the video player in BaseLayout (src/lib/public-csp.ts); /admin and /auth do not.
      scriptDirective: { resources: ["'self'"] },
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        // Headers, not <meta>, carry this policy (staticHeaders), so frame-ancestors works.
        "frame-ancestors 'none'",
      ],
    },
  },
  markdown: { syntaxHighlight: false },
  vite: { plugins: [tailwindcss()] },
});
