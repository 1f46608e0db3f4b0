import CMS from 'decap-cms-app';
import { es } from 'decap-cms-locales';
import gallery from '../data/gallery.json';
import landing from '../data/landing.json';
import models from '../data/models.json';
import pages from '../data/pages.json';
import type { DataFileName, DataFiles } from '../data/rules.ts';
import sellingPoints from '../data/selling-points.json';
import site from '../data/site.json';
import steps from '../data/steps.json';
import { type EditorSettings, editorConfig } from './config.ts';
import { ModelsPreview } from './preview.tsx';
import { editedFileProblems, problemsMessage } from './validate.ts';

/**
 * /editor: decap-cms over src/data, in Spanish. Its own page, bundle and CSP
 * (src/integrations/editor.ts); nothing here reaches the public pages or
 * the admin panel. Decision 0038.
 */

const settings = JSON.parse(document.getElementById('editor-settings')?.textContent ?? '{}') as EditorSettings;

/** The data files as they were when the editor was built: what an edited file is checked beside. */
const others: DataFiles = {
  site,
  landing,
  pages,
  models: models.models,
  gallery: gallery.images,
  sellingPoints: sellingPoints.points,
  steps: steps.steps,
};

// The build's own messages before a commit: a file the build would refuse is not saved.
CMS.registerEventListener({
  name: 'preSave',
  handler: ({ entry }) => {
    const name = entry.get('slug') as DataFileName;
    if (!(name in others)) return entry.get('data');
    const problems = editedFileProblems(name, entry.get('data').toJS(), others);
    if (problems.length) throw new Error(problemsMessage(problems));
    return entry.get('data');
  },
});

// decap-cms's Spanish, with what it leaves in English, and a field's error as the build says it.
const phrases = es as unknown as { editor: Record<string, Record<string, unknown>> };
CMS.registerLocale('es', {
  ...phrases,
  editor: {
    ...phrases.editor,
    editorControlPane: {
      ...phrases.editor.editorControlPane,
      widget: {
        ...(phrases.editor.editorControlPane?.widget as object),
        regexPattern: '%{fieldLabel}: %{pattern}',
      },
    },
    editorWidgets: {
      ...phrases.editor.editorWidgets,
      list: { add: 'Agregar %{item}', addType: 'Agregar %{item}' },
    },
  },
} as never);
CMS.registerPreviewTemplate('models', ModelsPreview as never);
CMS.init({ config: editorConfig(settings) as never });
