import type { MouseEvent, ReactNode } from 'react';

/** Within /admin: the address changes and the panel follows it, without loading the page again. */
export function openInPanel(href: string): void {
  window.history.pushState(null, '', href);
  window.dispatchEvent(new Event('admin:url'));
  window.scrollTo(0, 0);
}

/**
 * A link to a place of the panel (a view, a filtered list): a real link (a
 * new tab, a copied address work), followed in place on a plain click.
 */
export function PanelLink({
  href,
  className,
  children,
  current,
}: {
  href: string;
  className?: string;
  children: ReactNode;
  current?: boolean;
}) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    openInPanel(href);
  };
  return (
    <a href={href} className={className} onClick={follow} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
