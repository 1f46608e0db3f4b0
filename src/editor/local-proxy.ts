import { realpathSync } from 'node:fs';
import path from 'node:path';
import { DATA_FILES, LEGAL_DIR } from '../data/rules.ts';
import { IMAGE_FILE } from '../data/schemas.ts';
import { MEDIA_FOLDERS, MEDIA_ROOT } from './config.ts';

/**
 * What `npm run editor`'s proxy (decap-server's file-system middleware, run
 * inside scripts/editor.ts) may be asked, and by whom (decision 0051): only
 * the editor page that process serves (its exact Host and Origin), and only
 * the content: the data files, the legal pages and the content images.
 * Never .env, .git or code, whatever path a request names. Node only.
 */

/** The one origin that may use the proxy: the editor page's own, as `npm run editor` serves it. */
export function editorOrigin(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/**
 * Why a request does not come from the editor page, or undefined when it
 * does. `Host` must be the editor's own (not a name rebound to this machine),
 * and a request that changes something must come from its page (`Origin`,
 * which browsers send with every POST): another local page, on another port,
 * is another origin.
 */
export function requestOriginProblem(
  origin: string,
  headers: { host?: string; origin?: string },
  method: string,
): string | undefined {
  const expected = new URL(origin);
  if (headers.host !== expected.host) return `Abre el editor en ${origin}/editor.`;
  if (method !== 'GET' && method !== 'HEAD' && headers.origin !== origin)
    return 'Solo el editor de contenido de esta computadora puede guardar cambios.';
  return undefined;
}

/**
 * `rename`: a legal page's new name (persistEntry's `newPath`), in its own
 * folder. decap-server moves every file of the old name's folder to the new
 * name's (its `hasSubfolders` default): a data file moved to a legal page's
 * name took src/data's code along with it.
 */
type Access = 'read' | 'write' | 'list' | 'rename';

const DATA = new Set<string>(Object.values(DATA_FILES));
const LEGAL_PAGE = new RegExp(`^${LEGAL_DIR}/[a-z0-9]+(?:-[a-z0-9]+)*\\.md$`);
const FOLDERS_OF_IMAGES = new Set(MEDIA_FOLDERS);

/** True when `file` (a path from the project's root, as the editor names it) is content the proxy may touch so. */
export function isContentPath(file: unknown, access: Access, from?: unknown): boolean {
  if (typeof file !== 'string' || file !== path.posix.normalize(file) || file.startsWith('/') || file.includes('\\'))
    return false;
  if (access === 'rename') return LEGAL_PAGE.test(file) && typeof from === 'string' && LEGAL_PAGE.test(from);
  if (access === 'list') return file === LEGAL_DIR || file === MEDIA_ROOT || FOLDERS_OF_IMAGES.has(file);
  if (DATA.has(file) || LEGAL_PAGE.test(file)) return true;
  if (!IMAGE_FILE.test(file)) return false;
  // An image: any of the content's to read; a new one only into a data file's folder of images.
  const folder = path.posix.dirname(file);
  return access === 'read'
    ? folder === MEDIA_ROOT || folder.startsWith(`${MEDIA_ROOT}/`)
    : FOLDERS_OF_IMAGES.has(folder);
}

/** The paths a request of decap-server's protocol (`{ action, params }`) names, with how it uses each. */
export function requestedPaths(body: unknown): { path: unknown; access: Access; from?: unknown }[] | undefined {
  const { action, params = {} } = (body ?? {}) as { action?: unknown; params?: Record<string, unknown> };
  const list = (value: unknown) => (Array.isArray(value) ? value : [value]);
  const field = (value: unknown, key: string) => (value as Record<string, unknown> | undefined)?.[key];
  switch (action) {
    case 'info':
    case 'getDeployPreview':
      return [];
    case 'entriesByFolder':
      return [{ path: params.folder, access: 'list' }];
    case 'getMedia':
      return [{ path: params.mediaFolder, access: 'list' }];
    case 'entriesByFiles':
      return list(params.files).map((file) => ({ path: field(file, 'path'), access: 'read' }));
    case 'getEntry':
    case 'getMediaFile':
      return [{ path: params.path, access: 'read' }];
    case 'persistEntry': {
      const files = [...(params.entry ? [params.entry] : []), ...list(params.dataFiles ?? [])];
      return [
        ...files.flatMap((file) => [
          { path: field(file, 'path'), access: 'write' as const },
          ...(field(file, 'newPath') === undefined
            ? []
            : [{ path: field(file, 'newPath'), access: 'rename' as const, from: field(file, 'path') }]),
        ]),
        ...list(params.assets ?? []).map((asset) => ({ path: field(asset, 'path'), access: 'write' as const })),
      ];
    }
    case 'persistMedia':
      return [{ path: field(params.asset, 'path'), access: 'write' }];
    case 'deleteFile':
      return [{ path: params.path, access: 'write' }];
    case 'deleteFiles':
      return list(params.paths).map((file) => ({ path: file, access: 'write' }));
    default:
      // The editorial workflow's actions (git mode) and anything else: not this editor's.
      return undefined;
  }
}

/**
 * True when `file` under `root` is where its name says: no folder on the way
 * is a link elsewhere (a link inside the content to .env would otherwise be
 * read through it). A file not there yet is checked by its nearest folder.
 */
function staysInside(root: string, file: string): boolean {
  const realRoot = realpathSync(root);
  let current = file;
  for (;;) {
    try {
      return realpathSync(path.join(root, current)) === path.join(realRoot, current);
    } catch {
      if (current === '.' || current === path.posix.dirname(current)) return false;
      current = path.posix.dirname(current);
    }
  }
}

/** Why the proxy refuses `body` over the checkout at `root`, or undefined when every path it names is content. */
export function contentProblem(root: string, body: unknown): string | undefined {
  const paths = requestedPaths(body);
  if (!paths) return 'El editor no hace esa operación.';
  for (const { path: file, access, from } of paths)
    if (!isContentPath(file, access, from) || !staysInside(root, file as string))
      return 'El editor solo lee y guarda el contenido: los datos de src/data, las páginas legales y las imágenes.';
  return undefined;
}

/**
 * What a listing (entriesByFolder, getMedia) may answer: decap-server lists
 * a folder's files as it finds them, a link to .env among them, with its
 * content. Entries that are not content to read, or not where their name says
 * (a link), are left out of the answer. Anything else passes as it is.
 */
export function listedContent(root: string, body: unknown, answer: unknown): unknown {
  const { action } = (body ?? {}) as { action?: unknown };
  if ((action !== 'entriesByFolder' && action !== 'getMedia') || !Array.isArray(answer)) return answer;
  return answer.filter((entry: { path?: unknown; file?: { path?: unknown } }) => {
    const file = entry?.file?.path ?? entry?.path;
    return isContentPath(file, 'read') && staysInside(root, file as string);
  });
}
