import type { APIRoute } from 'astro';

/** Every public page; /auth, /admin and the 404 stay out. */
const PATHS = [
  '/',
  '/modelos',
  '/prefiltro',
  '/estimacion',
  '/prefiltro-socios',
  '/aviso-de-privacidad',
  '/terminos-y-condiciones',
];

export const GET: APIRoute = ({ site }) => {
  const urls = PATHS.map(
    (path) => `  <url><loc>${new URL(path, site).href.replace(/\/$/, path === '/' ? '/' : '')}</loc></url>`,
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
