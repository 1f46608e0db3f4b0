/** The public path of a page built as a file: /modelos.html -> /modelos, /index.html -> /. */
export function pagePath(url: URL): string {
  return url.pathname.replace(/(index)?\.html$/, '').replace(/\/$/, '') || '/';
}
