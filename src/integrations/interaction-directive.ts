import type { ClientDirective } from 'astro';

/**
 * `client:interaction`: hydrate an island on the visitor's first pointer,
 * touch or focus inside it, never at load. Its server-rendered HTML is usable
 * until then; typing goes into the plain inputs, which React adopts as they are.
 * At that first touch the island's whole module graph (`data-preload`, written
 * by the build: island-preload.ts) is requested at once, in one round trip.
 *
 * `client:interaction="prefetch"`, for a page that is its form (/prefiltro,
 * /estimacion, /prefiltro-socios): the same graph is also asked for as
 * `rel="prefetch"` once the page has loaded and the browser is idle, at the
 * lowest priority, so the first tap finds it in the cache; it still runs only
 * at the first touch (decision 0031).
 */
const TRIGGERS = ['pointerenter', 'pointerdown', 'touchstart', 'focusin'] as const;

function addLinks(rel: 'modulepreload' | 'prefetch', hrefs: readonly string[]) {
  for (const href of hrefs) {
    if (document.head.querySelector(`link[rel="${rel}"][href="${href}"]`)) continue;
    const link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    document.head.append(link);
  }
}

/** After the load event, when the browser has nothing else to do (a plain timeout where there is no idle callback). */
function whenIdleAfterLoad(task: () => void) {
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(task) : setTimeout(task, 1));
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

const hydrateOnInteraction: ClientDirective = (load, options, element) => {
  const graph = element.dataset.preload?.split(' ').filter(Boolean) ?? [];
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of TRIGGERS) element.removeEventListener(type, start);
    addLinks('modulepreload', graph);
    const hydrate = await load();
    await hydrate();
  };
  for (const type of TRIGGERS) element.addEventListener(type, start, { passive: true });
  if (options.value === 'prefetch') whenIdleAfterLoad(() => started || addLinks('prefetch', graph));
};

export default hydrateOnInteraction;
