import { z } from 'zod';
import { CATALOGUE_TOKENS } from '../data/catalogue.ts';
import { LEGAL_TOKENS } from '../data/legal.ts';
import { DATA_FILES, type DataFileName, LEGAL_DIR, LIST_KEYS, LISTS } from '../data/rules.ts';
import {
  appointmentsSchema,
  GALLERY_SIZE,
  galleryImageSchema,
  landingSchema,
  legalPageSchema,
  MAX_IMAGE_BYTES,
  modelSchema,
  pagesSchema,
  sellingPointSchema,
  siteSchema,
  stepSchema,
  voiceAgentSchema,
} from '../data/schemas.ts';
import { type EditorField, editorField, objectFields } from './fields.ts';

/**
 * The editor's whole configuration (decap-cms), built from the schemas: one
 * file entry per data file in src/data, grouped as marketing thinks of them,
 * and the legal pages. Decision 0038.
 */

export interface EditorSettings {
  /** "owner/name" of the GitHub repository the editor commits to (Netlify's REPOSITORY_URL). */
  repo?: string;
  /** The branch it commits to, which Netlify publishes. */
  branch: string;
  /** The local proxy's address (`npm run editor`), e.g. http://127.0.0.1:8081/api/v1. */
  localProxy?: string;
  /** The public site, for the editor's "view site" link. */
  siteUrl?: string;
}

/** Where uploaded images go, by data file: beside the ones already there. */
const MEDIA: Partial<Record<DataFileName, string>> = { models: 'models', gallery: 'gallery' };
/** The whole media library's folder (the editor's "Multimedia"), and each data file's folder of images in it. */
export const MEDIA_ROOT = 'src/assets';
export const MEDIA_FOLDERS = Object.values(MEDIA).map((folder) => `${MEDIA_ROOT}/${folder}`);

const LIST_SCHEMAS = {
  models: modelSchema,
  gallery: galleryImageSchema,
  sellingPoints: sellingPointSchema,
  steps: stepSchema,
} as const;
const OBJECT_SCHEMAS = {
  site: siteSchema,
  landing: landingSchema,
  pages: pagesSchema,
  appointments: appointmentsSchema,
  voiceAgent: voiceAgentSchema,
} as const;

const LABELS: Record<DataFileName, string> = {
  models: 'Modelos y precios',
  gallery: 'Galería de /modelos (17 imágenes)',
  landing: 'Textos de la portada',
  pages: 'Textos de las demás páginas',
  sellingPoints: 'Puntos de venta de la portada',
  steps: 'Pasos del ciclo de compra',
  site: 'Datos del sitio (teléfono, correos, redes, precio "desde", domicilio)',
  appointments: 'Tipos de cita y lugares (horarios, días festivos)',
  voiceAgent: 'Agente de voz (saludo y forma de hablar; los precios salen del catálogo)',
};

/** The fields of one data file, as the editor shows them. */
export function fileFields(name: DataFileName): EditorField[] {
  const folder = MEDIA[name];
  // The upload is refused above the build's limit (decap-cms says so in Spanish).
  const image = folder ? { media_library: { config: { max_file_size: MAX_IMAGE_BYTES } } } : undefined;
  if (name in LIST_SCHEMAS) {
    const key = LIST_KEYS[name as keyof typeof LIST_KEYS];
    const list = editorField(key, z.array(LIST_SCHEMAS[name as keyof typeof LIST_SCHEMAS]), image ? { image } : {});
    // The gallery shows exactly GALLERY_SIZE images: the form neither adds nor removes one.
    const count = name === 'gallery' ? { min: GALLERY_SIZE, max: GALLERY_SIZE, allow_add: false } : {};
    return [{ ...list, ...count, label: LABELS[name], label_singular: LISTS[name as keyof typeof LISTS].noun }];
  }
  return objectFields(OBJECT_SCHEMAS[name as keyof typeof OBJECT_SCHEMAS]);
}

/** A legal page's form: its front matter from the build's schema, then its text with the tokens the page fills in. */
export function legalFields(): EditorField[] {
  const tokens = [...LEGAL_TOKENS, ...Object.keys(CATALOGUE_TOKENS)].map((token) => `{${token}}`);
  return [
    ...objectFields(legalPageSchema),
    {
      name: 'body',
      label: 'Texto',
      widget: 'markdown',
      // The preview renders the text as HTML inside the panel's origin: sanitized, whatever was pasted.
      sanitize_preview: true,
      hint: `Entre llaves, la página pone los datos: ${tokens.join(', ')}. Cualquier otra marca entre llaves impide guardar.`,
    },
  ];
}

/**
 * Each file's form, by its path from the project's root: the title the
 * editor shows it under and its fields (a list file's, those of one entry),
 * for naming a problem as the form names it. `legal`: the legal pages' titles.
 */
export function editorForms(
  legal: readonly { file: string; title: string }[] = [],
): Record<string, { title: string; fields: EditorField[] }> {
  const forms: Record<string, { title: string; fields: EditorField[] }> = {};
  for (const name of Object.keys(DATA_FILES) as DataFileName[]) {
    const fields = fileFields(name);
    forms[DATA_FILES[name]] = {
      title: LABELS[name],
      fields: name in LIST_KEYS ? (fields[0]?.fields ?? []) : fields,
    };
  }
  for (const page of legal) forms[page.file] = { title: page.title, fields: legalFields() };
  return forms;
}

/**
 * The data files' format: JSON, saved into the file's own text so its layout
 * stays (main.tsx registers it with keepLayout, json-layout.ts).
 */
export const DATA_FORMAT = 'json-as-written';

const file = (name: DataFileName) => ({
  name,
  label: LABELS[name],
  file: DATA_FILES[name],
  // Uploads go beside the file's other images; values stay relative to src/data ("../assets/models/lumo.svg").
  ...(MEDIA[name] ? { media_folder: `/${MEDIA_ROOT}/${MEDIA[name]}`, public_folder: `../assets/${MEDIA[name]}` } : {}),
  fields: fileFields(name),
});

export function editorConfig(settings: EditorSettings) {
  return {
    load_config_file: false,
    locale: 'es',
    backend: {
      name: 'github',
      repo: settings.repo ?? 'sin-configurar/sin-configurar',
      branch: settings.branch,
      // Netlify's own GitHub sign-in: no server function of ours.
      base_url: 'https://api.netlify.com',
      auth_endpoint: 'auth',
      commit_messages: {
        create: 'Editor: crea {{collection}} "{{slug}}"',
        update: 'Editor: cambia {{collection}} "{{slug}}"',
        delete: 'Editor: borra {{collection}} "{{slug}}"',
        uploadMedia: 'Editor: sube {{path}}',
        deleteMedia: 'Editor: borra {{path}}',
      },
    },
    ...(settings.localProxy
      ? { local_backend: { url: settings.localProxy, allowed_hosts: ['127.0.0.1', 'localhost'] } }
      : {}),
    ...(settings.siteUrl ? { site_url: settings.siteUrl, display_url: settings.siteUrl } : {}),
    // Images are written relative to src/data ("../assets/models/lumo.svg"): this maps them to the files.
    media_folder: MEDIA_ROOT,
    public_folder: '../assets',
    publish_mode: 'simple',
    collections: [
      {
        name: 'catalogo',
        label: 'Catálogo',
        format: DATA_FORMAT,
        editor: { preview: true },
        files: [file('models'), file('gallery')],
      },
      {
        name: 'paginas',
        label: 'Páginas',
        format: DATA_FORMAT,
        files: [file('landing'), file('pages'), file('sellingPoints'), file('steps')],
      },
      { name: 'sitio', label: 'Datos del sitio', format: DATA_FORMAT, files: [file('site')] },
      { name: 'citas', label: 'Citas', format: DATA_FORMAT, files: [file('appointments')] },
      { name: 'voz', label: 'Agente de voz', format: DATA_FORMAT, files: [file('voiceAgent')] },
      {
        name: 'legal',
        label: 'Páginas legales',
        folder: LEGAL_DIR,
        extension: 'md',
        format: 'frontmatter',
        create: false,
        delete: false,
        identifier_field: 'title',
        fields: legalFields(),
      },
    ],
  };
}
