import type { ClientDirective } from 'astro';

/**
 * `client:interaction`: hydrate an island on the visitor's first pointer,
 * touch or focus inside it, never at load. Its server-rendered HTML is usable
 * until then; typing goes into the plain inputs, which React adopts as they are.
 * At that first touch the island's whole module graph (`data-preload`, written
 * by the build: island-preload.ts) is requested at once, in one round trip.
 */
const TRIGGERS = ['pointerenter', 'pointerdown', 'touchstart', 'focusin'] as const;

const hydrateOnInteraction: ClientDirective = (load, _options, element) => {
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of TRIGGERS) element.removeEventListener(type, start);
    for (const href of element.dataset.preload?.split(' ') ?? []) {
      if (document.head.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    const hydrate = await load();
    await hydrate();
  };
  for (const type of TRIGGERS) element.addEventListener(type, start, { passive: true });
};

export default hydrateOnInteraction;
