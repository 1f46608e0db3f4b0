/**
 * Runs on every public page, written inline by the layout as one classic script
 * (src/integrations/page-script.ts, decision 0023): keeps the visit's
 * attribution, sends what waits in the outbox, loads what waits to come near
 * the screen (data-near-screen), and holds a form submitted
 * before its island finished hydrating, so the island sends it once ready
 * instead of the browser posting it as a page. Whatever it imports is bundled
 * into it: keep it small (`npm run bench:web` counts it). The team's pages
 * (the layout's `bare`) run src/scripts/panel.ts instead.
 */
import { captureAttribution } from '../lib/client/attribution.ts';
import { holdEarlySubmits } from '../lib/client/early-submit.ts';
import { takeFlashToast } from '../lib/client/flash.ts';
import { startNearScreenModules } from '../lib/client/near-screen.ts';
import { OUTBOX_SEND_EVENT, readOutbox } from '../lib/client/outbox.ts';
import { startOutbox } from '../lib/client/outbox-sender.ts';
import { showToast } from '../lib/client/toast.ts';

captureAttribution();
holdEarlySubmits();

// A press on the voice button before its island is ready is remembered for the island.
document.addEventListener(
  'click',
  (event) => {
    const button = (event.target as Element | null)?.closest<HTMLElement>(
      '[data-voice-button][data-enhanced="pending"]',
    );
    if (button) button.dataset.queuedClick = 'true';
  },
  true,
);

// A success message kept by the previous page (e.g. before going to /modelos).
const flash = takeFlashToast();
if (flash) showToast(flash);

// A request kept while the visitor had no signal goes out now (and when the connection returns);
// a form that has just kept one asks for it with OUTBOX_SEND_EVENT.
if (readOutbox().length > 0) void startOutbox();
window.addEventListener(OUTBOX_SEND_EVENT, () => void startOutbox());

// What waits for its element to come near the screen (the gallery of /modelos): no request before.
startNearScreenModules();
