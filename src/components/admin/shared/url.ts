import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * The panel's place in its address (issue #26): the view, the search, the
 * filters and the chips live in /admin's query string, so a reload, the
 * browser's Back and the contact page's back link return to the same list.
 * Typing and tapping a chip replace the address (Back leaves the list, it
 * does not undo filters one by one); changing the view pushes a new entry.
 */
const CHANGED = 'admin:url';
const LAST_LIST = 'admin:last-list';
const SCROLL = 'admin:scroll:';

const subscribe = (notify: () => void) => {
  window.addEventListener('popstate', notify);
  window.addEventListener(CHANGED, notify);
  return () => {
    window.removeEventListener('popstate', notify);
    window.removeEventListener(CHANGED, notify);
  };
};
const search = () => window.location.search;

/** Where the panel is now, for the back links of the pages it opens. */
function remember(): void {
  try {
    sessionStorage.setItem(LAST_LIST, `${window.location.pathname}${window.location.search}`);
  } catch {
    // Storage refused (private mode): the back link goes to /admin.
  }
}

/** Changes some parameters of the address (null or '' removes one) and tells the panel. */
export function setUrlParams(changes: Record<string, string | null | undefined>, mode: 'push' | 'replace' = 'replace') {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  const text = params.toString();
  const url = `${window.location.pathname}${text ? `?${text}` : ''}`;
  if (mode === 'push') window.history.pushState(null, '', url);
  else window.history.replaceState(window.history.state, '', url);
  remember();
  window.dispatchEvent(new Event(CHANGED));
}

/** The address's query string as parameters; the component renders again when it changes. */
export function useUrlParams(): URLSearchParams {
  const text = useSyncExternalStore(subscribe, search, () => '');
  // Whatever moved the address (a filter, a view's link, Back within the panel), the back links follow.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again each time the address changes
  useEffect(remember, [text]);
  return new URLSearchParams(text);
}

/** The list the member last looked at in the panel (for "← Prospectos"), or /admin. */
export function lastList(fallback = '/admin'): string {
  try {
    const place = sessionStorage.getItem(LAST_LIST);
    return place?.startsWith('/admin') ? place : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Keeps the page's scroll position per address, and puts it back once `ready`
 * (the list's data has arrived): the browser's own restoration runs before
 * the list exists, so it is turned off on the panel.
 */
export function useKeptScroll(ready: boolean): void {
  const restored = useRef(false);
  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    let frame = 0;
    const save = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        try {
          sessionStorage.setItem(`${SCROLL}${window.location.search}`, String(Math.round(window.scrollY)));
        } catch {
          // No storage: the place is not kept.
        }
      });
    };
    window.addEventListener('scroll', save, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', save);
    };
  }, []);
  const restore = useCallback(() => {
    let saved = 0;
    try {
      saved = Number(sessionStorage.getItem(`${SCROLL}${window.location.search}`) ?? 0);
    } catch {
      saved = 0;
    }
    if (saved > 0) window.scrollTo(0, saved);
  }, []);
  useEffect(() => {
    if (!ready || restored.current) return;
    restored.current = true;
    // After the list has been laid out.
    requestAnimationFrame(restore);
  }, [ready, restore]);
}
