import CMS from 'decap-cms-app';
import { currentBackend } from 'decap-cms-core/dist/esm/backend';
import gallery from '../data/gallery.json';
import landing from '../data/landing.json';
import models from '../data/models.json';
import pages from '../data/pages.json';
import { DATA_FILES, type DataFileName, type LegalText } from '../data/rules.ts';
import sellingPoints from '../data/selling-points.json';
import site from '../data/site.json';
import steps from '../data/steps.json';
import { nameDecapControls } from './accessible-names.ts';
import { DATA_FORMAT, type EditorSettings, editorConfig, editorForms } from './config.ts';
import { keepLayout } from './json-layout.ts';
import { EDITOR_PHRASES } from './locale.ts';
import { registerPreviews } from './preview.tsx';
import {
  type Content,
  dataFileProblems,
  type LegalEntry,
  legalFile,
  legalFileText,
  legalPageProblems,
  readContent,
  refusalMessage,
  SaveRefused,
  withSaved,
} from './validate.ts';

/**
 * /editor: decap-cms over src/data, in Spanish. Its own page, bundle and CSP
 * (src/integrations/editor.ts); nothing here reaches the public pages or
 * the admin panel. Decision 0038.
 */

/** The legal pages as they were when the editor was built (src/editor/build.ts puts them in). */
declare const EDITOR_LEGAL_TEXTS: LegalText[];

const settings = JSON.parse(document.getElementById('editor-settings')?.textContent ?? '{}') as EditorSettings;
const config = editorConfig(settings);

/**
 * What this session knows of the content: the files as they were when the
 * editor was built, updated by each save. Before a save the files are read
 * again from the repository (someone else may have saved since); this is
 * what stands for a file that cannot be read.
 */
let known: Content = {
  data: {
    site,
    landing,
    pages,
    models: models.models,
    gallery: gallery.images,
    sellingPoints: sellingPoints.points,
    steps: steps.steps,
  },
  legal: EDITOR_LEGAL_TEXTS,
};

/** The files' texts as last read from the repository, and the one of the file being saved. */
const texts = new Map<string, string>();
let savingText: string | undefined;

/** A file as the repository holds it now, through the editor's own backend (GitHub or the local proxy). */
async function readFromRepository(path: string): Promise<string> {
  const backend = currentBackend(config) as { implementation: { getEntry(path: string): Promise<{ data: string }> } };
  const { data } = await backend.implementation.getEntry(path);
  texts.set(path, data);
  return data;
}

// A data file is saved into its own text (read just before, by the check below): one price, one line of the diff.
CMS.registerCustomFormat(DATA_FORMAT, 'json', {
  fromFile: (content: string) => JSON.parse(content),
  toFile: (data: unknown) => keepLayout(savingText, data),
});

/** The legal pages' titles, for naming them in a message. */
const titleOf = (page: LegalText) => /^title:\s*"?(.*?)"?\s*$/m.exec(page.text)?.[1] ?? page.file;

interface SavedEntry {
  get(key: 'collection' | 'slug'): string;
  get(key: 'data'): { toJS(): unknown };
}

/** The file an entry is saved to, as the checks name it; undefined for a file they do not check. */
function targetOf(entry: SavedEntry): { legal: string } | { name: DataFileName } | undefined {
  const slug = entry.get('slug');
  if (entry.get('collection') === 'legal') return { legal: legalFile(slug) };
  return slug in DATA_FILES ? { name: slug as DataFileName } : undefined;
}

// The build's own messages before a commit: a file the build would refuse is not saved.
CMS.registerEventListener({
  name: 'preSave',
  handler: async ({ entry }: { entry: SavedEntry }) => {
    const target = targetOf(entry);
    savingText = undefined;
    if (!target) return undefined;
    const content = await readContent(readFromRepository, known);
    if ('name' in target) savingText = texts.get(DATA_FILES[target.name]);
    // What the previews fill the catalogue's tokens from, too.
    known = content;
    const data = entry.get('data').toJS();
    const problems =
      'legal' in target
        ? legalPageProblems(target.legal, data as LegalEntry, content)
        : dataFileProblems(target.name, data, content);
    if (problems.length) {
      const forms = editorForms(content.legal.map((page) => ({ file: page.file, title: titleOf(page) })));
      const message = refusalMessage(problems, forms);
      showRefusal(message);
      throw new SaveRefused(problems, message);
    }
    showRefusal(undefined);
    return undefined;
  },
} as never);

// The next save is checked against this one even when the repository cannot be read.
CMS.registerEventListener({
  name: 'postSave',
  handler: ({ entry }: { entry: SavedEntry }) => {
    const target = targetOf(entry);
    const data = entry.get('data').toJS();
    if (target && 'legal' in target)
      known = withSaved(known, { file: target.legal, text: legalFileText(data as LegalEntry) });
    else if (target) known = withSaved(known, { name: target.name, data });
    return undefined;
  },
} as never);

// A refusal is a list: its lines stay lines, in a panel at the head of the form (not over it). The toast says
// it in short, over the toolbar and the preview, and closes by itself.
const style = document.createElement('style');
style.textContent = `
.notif__container { width: min(28rem, calc(100vw - 2rem)); }
.notif__container .Toastify__toast-body { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3;
  overflow: hidden; line-height: 1.4; max-height: 4.2em; }
#editor-refusal { margin: 1rem 0; padding: 1rem 1.25rem; border-radius: 0.75rem; background: #fff5f3;
  border: 2px solid #b42318; color: #3b0d08; font: 15px/1.45 system-ui, sans-serif; scroll-margin-top: 1rem; }
#editor-refusal h2 { margin: 0 0 0.5rem; font-size: 1rem; }
#editor-refusal p { margin: 0; white-space: pre-line; overflow-wrap: anywhere; }
#editor-refusal button { margin-top: 0.75rem; min-height: 44px; padding: 0.4rem 1rem; border-radius: 0.5rem;
  border: 1px solid #b42318; background: #fff; color: #b42318; font-weight: 600; cursor: pointer; }
/* decap-cms's own colours below 4.5:1 (WCAG AA): its red badge ("Cambios sin guardar") and its teal "Publicar". */
[class*="textBadgeDanger"] { color: #c20032 !important; }
[class*="PublishButton"] { background-color: #117888 !important; }
/* decap-cms's editor is 800 px wide at least: on a phone the form takes the screen, the preview stays behind its button. */
@media (max-width: 799px) {
  [class*="EditorContainer"], [class*="ToolbarContainer"] { min-width: 0 !important; }
  [class*="BackCollection"], [class*="ViewControls"] { display: none; }
  .SplitPane > .Pane1 { width: 100% !important; }
  .SplitPane > .Resizer, .SplitPane > .Pane2 { display: none; }
}`;
document.head.append(style);

/**
 * The refusal stays until it is closed or the next save passes (decap-cms's
 * toast closes by itself after a few seconds, too soon to fix a list of
 * things by it), at the head of the form it is about: it scrolls with the
 * fields and covers none of them, at any width.
 */
function showRefusal(message: string | undefined): void {
  document.getElementById('editor-refusal')?.remove();
  if (!message) return;
  const panel = document.createElement('section');
  panel.id = 'editor-refusal';
  panel.setAttribute('role', 'alert');
  panel.setAttribute('aria-labelledby', 'editor-refusal-title');
  const title = document.createElement('h2');
  title.id = 'editor-refusal-title';
  title.textContent = 'No se guardó';
  const text = document.createElement('p');
  text.textContent = `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Entendido';
  close.addEventListener('click', () => panel.remove());
  panel.append(title, text, close);
  const form = document.querySelector('[class*="ControlPaneContainer"]');
  if (form) form.prepend(panel);
  else document.body.append(panel);
  panel.scrollIntoView({ block: 'start' });
}

// decap-cms's interface in Mexican Spanish, none of it left in English (locale.ts).
CMS.registerLocale('es', EDITOR_PHRASES as never);
registerPreviews(CMS, () => known);
CMS.init({ config: config as never });
nameDecapControls();
