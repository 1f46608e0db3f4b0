// @ts-check
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { netlifyHeaders } from './src/integrations/netlify-headers.ts';

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://127.0.0.1:4321',
  output: 'static',
  adapter: netlify({ imageCDN: false }),
  integrations: [react(), netlifyHeaders()],
  security: { csp: true },
  markdown: { syntaxHighlight: false },
  vite: { plugins: [tailwindcss()] },
});
