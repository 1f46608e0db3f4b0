import type { ClientDirective } from 'astro';

/**
 * `client:interaction`: hydrate an island on the visitor's first pointer,
 * touch or focus inside it, never at load. Its server-rendered HTML is usable
 * until then; typing goes into the plain inputs, which React adopts as they are.
 * At that first touch the island's whole module graph (`data-preload`, written
 * by the build) is requested at once as module preloads, so a phone on a slow
 * network waits one round trip instead of one per level of imports.
 */
const TRIGGERS = ['pointerenter', 'pointerdown', 'touchstart', 'focusin'] as const;

function preload(element: HTMLElement): void {
  const island = element.closest('astro-island') ?? element;
  for (const href of (island.getAttribute('data-preload') ?? '').split(' ')) {
    if (!href.startsWith('/_astro/') || document.head.querySelector(`link[href="${href}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

const hydrateOnInteraction: ClientDirective = (load, _options, element) => {
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of TRIGGERS) element.removeEventListener(type, start);
    preload(element);
    const hydrate = await load();
    await hydrate();
  };
  for (const type of TRIGGERS) element.addEventListener(type, start, { passive: true });
};

export default hydrateOnInteraction;
