/**
 * Holds a form submitted before its island finished hydrating (its
 * `data-enhanced="pending"`), so the island sends it once ready instead of
 * the browser posting it as a page. Run by the page scripts (src/scripts/).
 */
export function holdEarlySubmits(): void {
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (form instanceof HTMLFormElement && form.dataset.enhanced === 'pending') {
        event.preventDefault();
        form.dataset.submitQueued = 'true';
      }
    },
    true,
  );
}
