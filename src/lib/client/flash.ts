import type { Toast } from './toast.ts';

const KEY = 'flash-toast';

/** Keeps a toast to show on the next page (a success message before a redirect). */
export function flashToast(toast: Toast): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(toast));
  } catch {
    // Without storage the next page simply shows no message.
  }
}

/** The toast kept by the previous page, once. */
export function takeFlashToast(): Toast | null {
  try {
    const stored = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return stored ? (JSON.parse(stored) as Toast) : null;
  } catch {
    return null;
  }
}
