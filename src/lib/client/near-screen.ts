/**
 * An element with `data-near-screen="<module URL>"` loads that module when it
 * comes within 200 px of the screen, never before, and the module's default
 * export starts it (the gallery of /modelos: Swiper). The URL comes from
 * `virtual:near-screen/<name>` (src/integrations/near-screen-module.ts).
 * If the module cannot load (no signal), the element stays as the server wrote it.
 */
export function startNearScreenModules(root: ParentNode = document): void {
  const elements = [...root.querySelectorAll<HTMLElement>('[data-near-screen]')];
  if (elements.length === 0) return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const element = entry.target as HTMLElement;
        import(/* @vite-ignore */ element.dataset.nearScreen as string).then(
          (module: { default: (element: HTMLElement) => unknown }) => module.default(element),
          () => undefined,
        );
      }
    },
    { rootMargin: '200px' },
  );
  for (const element of elements) observer.observe(element);
}
