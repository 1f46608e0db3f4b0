/**
 * The page script of the team's pages (/admin, /auth and theirs: the layout's
 * `bare`), written inline like src/scripts/site.ts, with only what they use:
 * a form held until its island is ready, and the success message the page
 * before kept. Nothing of the visitors' script: a visit's attribution, the
 * lead forms' outbox, the voice button, the gallery (about 2 KB gzip).
 */
import { holdEarlySubmits } from '../lib/client/early-submit.ts';
import { takeFlashToast } from '../lib/client/flash.ts';
import { showToast } from '../lib/client/toast.ts';

holdEarlySubmits();

const flash = takeFlashToast();
if (flash) showToast(flash);
