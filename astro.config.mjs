// @ts-check
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://127.0.0.1:4321',
  output: 'static',
  adapter: netlify({ imageCDN: false }),
  integrations: [react()],
  security: { csp: true },
  markdown: { syntaxHighlight: false },
  vite: { plugins: [tailwindcss()] },
});
