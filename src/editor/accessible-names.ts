/**
 * Names, in Spanish, for decap-cms's controls that have none (issue #38 item
 * 14, decision 0051): each list item's bar has an icon button to open or
 * close it, a drag handle and an icon button to remove it, all nameless to a
 * screen reader and to axe ("button-name", "aria-command-name"); its preview
 * is an untitled frame; its drag instructions are in English. decap renders
 * them anew as the form changes, so they are named again after each change.
 */

const TOP_BAR = '[class*="ListItemTopBar"]';
const HANDLE = '[aria-roledescription="sortable"]';

const DRAG_INSTRUCTIONS =
  'Para mover un elemento, presiona la barra espaciadora o Enter, muévelo con las flechas y presiona otra vez la barra espaciadora o Enter para dejarlo ahí, o Escape para cancelar.';

function set(element: Element, attribute: string, value: string): void {
  if (element.getAttribute(attribute) !== value) element.setAttribute(attribute, value);
}

/** How a list item is called: its summary as the form shows it («Meridian»), or its place. */
function itemName(bar: Element): string {
  const item = bar.parentElement;
  const summary = item?.querySelector('[class*="NestedObjectLabel"]')?.textContent?.trim();
  if (summary) return `«${summary}»`;
  const place = item?.parentElement ? [...item.parentElement.children].indexOf(item) + 1 : 0;
  return `el elemento ${place}`;
}

function nameControls(): void {
  for (const bar of document.querySelectorAll(TOP_BAR)) {
    const name = itemName(bar);
    const buttons = [...bar.children].filter((child) => child.tagName === 'BUTTON');
    const handle = bar.querySelector(HANDLE);
    if (handle) set(handle, 'aria-label', `Mover ${name}`);
    for (const button of buttons) {
      // The open/close button comes before the handle, the remove button after it.
      const removes = handle
        ? Boolean(handle.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING)
        : buttons.length > 1 && button === buttons.at(-1);
      set(button, 'aria-label', removes ? `Quitar ${name}` : `Mostrar u ocultar ${name}`);
    }
  }
  for (const frame of document.querySelectorAll('#preview-pane')) set(frame, 'title', 'Vista previa');
  for (const instructions of document.querySelectorAll('[id^="DndDescribedBy-"]'))
    if (instructions.textContent !== DRAG_INSTRUCTIONS) instructions.textContent = DRAG_INSTRUCTIONS;
}

/** Names decap-cms's nameless controls now and whenever its page changes. */
export function nameDecapControls(): void {
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      nameControls();
    });
  };
  new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true, characterData: true });
  schedule();
}
