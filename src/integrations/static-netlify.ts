import netlify from '@astrojs/netlify';
import type { AstroIntegration } from 'astro';

type NetlifyOptions = NonNullable<Parameters<typeof netlify>[0]>;
type ConfigDoneHook = NonNullable<AstroIntegration['hooks']['astro:config:done']>;

/**
 * The Netlify adapter for a site whose every page is prerendered.
 *
 * An adapter that does not declare `adapterFeatures.buildOutput` makes Astro
 * build in server mode, and `@astrojs/netlify` then ships a catch-all server
 * function (`.netlify/v1/functions/ssr`, `path: '/*'`, `preferStatic`) that
 * only ever answers the 404 page: every unknown URL a bot probes would invoke
 * a function, whose answer Netlify sends without our `_headers`. Declaring
 * `buildOutput: 'static'` (Astro's adapter API) keeps the build static: no
 * server bundle, no catch-all; Netlify serves `dist/404.html` with status 404
 * for unknown paths. A page with `prerender = false` then fails the build with
 * Astro's own message instead of quietly shipping a server. The adapter keeps
 * doing what we use it for: each page's CSP in `.netlify/v1/config.json`.
 * See docs/decisions/0015-netlify-emulator-and-no-ssr-catch-all.md.
 */
export function staticNetlify(options: NetlifyOptions): AstroIntegration {
  const adapter = netlify(options);
  const configDone = adapter.hooks['astro:config:done'];
  if (!configDone) throw new Error('@astrojs/netlify has no astro:config:done hook: check staticNetlify()');
  const staticConfigDone: ConfigDoneHook = (params) => {
    const setAdapter = params.setAdapter;
    // The params object is Astro's own (its buildOutput is a live getter): change only setAdapter.
    params.setAdapter = (declared) =>
      setAdapter({ ...declared, adapterFeatures: { ...declared.adapterFeatures, buildOutput: 'static' } });
    return configDone(params);
  };
  return { ...adapter, hooks: { ...adapter.hooks, 'astro:config:done': staticConfigDone } };
}
