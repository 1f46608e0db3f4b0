import type { ClientDirective } from 'astro';

/**
 * `client:interaction`: hydrate an island on the visitor's first pointer,
 * touch or focus inside it, never at load. Its server-rendered HTML is usable
 * until then; typing goes into the plain inputs, which React adopts as they are.
 */
const TRIGGERS = ['pointerenter', 'pointerdown', 'touchstart', 'focusin'] as const;

const hydrateOnInteraction: ClientDirective = (load, _options, element) => {
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of TRIGGERS) element.removeEventListener(type, start);
    const hydrate = await load();
    await hydrate();
  };
  for (const type of TRIGGERS) element.addEventListener(type, start, { passive: true });
};

export default hydrateOnInteraction;
