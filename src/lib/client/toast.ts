/**
 * Toasts without a framework: any island or script calls `showToast`, and
 * the message lands in the live regions the layout renders (polite for
 * information, assertive for errors), so screen readers announce it.
 */
export interface Toast {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

const DURATION_MS = 5000;
const MAX_VISIBLE = 3;

export function showToast({ title, description, variant = 'default' }: Toast): void {
  const region = document.getElementById(variant === 'destructive' ? 'toasts-alert' : 'toasts-status');
  if (!region) return;
  // An open modal dialog makes the rest of the page inert and covers it: the
  // toasts move into the dialog while it is open, and back afterwards.
  const toaster = region.parentElement;
  const home = document.querySelector('dialog:modal') ?? document.body;
  if (toaster && toaster.parentElement !== home) home.append(toaster);

  const item = document.createElement('div');
  item.className = `toast toast-${variant}`;
  item.dataset.variant = variant;
  const heading = document.createElement('p');
  heading.className = 'toast-title';
  heading.textContent = title;
  item.append(heading);
  if (description) {
    const text = document.createElement('p');
    text.className = 'toast-text';
    text.textContent = description;
    item.append(text);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'toast-close';
  close.setAttribute('aria-label', 'Cerrar notificación');
  close.textContent = '×';
  close.addEventListener('click', () => item.remove());
  item.append(close);

  region.append(item);
  const all = document.querySelectorAll('.toast');
  for (const old of Array.from(all).slice(0, Math.max(0, all.length - MAX_VISIBLE))) old.remove();
  window.setTimeout(() => item.remove(), DURATION_MS);
}
