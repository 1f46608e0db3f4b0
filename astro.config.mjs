// @ts-check
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import siteFacts from './src/data/site.json' with { type: 'json' };
import { hydrateOnInteraction } from './src/integrations/hydrate-on-interaction.ts';
import { netlifyHeaders } from './src/integrations/netlify-headers.ts';

export default defineConfig({
  site: process.env.SITE_URL ?? siteFacts.siteUrl,
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file' },
  adapter: netlify({ imageCDN: false }),
  integrations: [react(), hydrateOnInteraction(), netlifyHeaders()],
  // Our own illustrations are SVG; the build rasterises them to AVIF/WebP.
  image: { dangerouslyProcessSVG: true },
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        'frame-src https://www.youtube-nocookie.com',
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
    },
  },
  markdown: { syntaxHighlight: false },
  vite: { plugins: [tailwindcss()] },
});
