import type { Config } from '@netlify/functions';
import { isUuid } from '../../src/lib/ids.ts';
import { getConfig } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { SECURITY_HEADERS } from '../../src/server/http/headers.ts';
import { jsonError } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { fetchMedia, type MediaBytes, MediaUnavailable } from '../../src/server/whatsapp/cloud-api.ts';
import { cachedMedia, keepMedia, MEDIA_CACHE_FILE_MAX, readUpTo } from '../../src/server/whatsapp/media-cache.ts';

const NOT_FOUND = 'Este mensaje no tiene archivo.';

/** Shown in the page: the browser may play or show these; anything else is downloaded. */
const INLINE = /^(image\/(jpeg|png|webp)|audio\/(ogg|mpeg|mp4|aac|amr)|video\/(mp4|3gpp))$/;

/**
 * GET /api/admin/whatsapp/media/{messageId} (members): a message's photo,
 * audio, video, document or sticker, fetched from the platform with the
 * token when first opened (cloud-api.ts: only from the configured media
 * hosts) and kept for the next opens (media-cache.ts: up to 5 MB a file),
 * never a public URL. Served sandboxed and never sniffed: a file someone sent
 * us cannot run as a page of ours.
 */
export default endpoints('admin-whatsapp-media', [
  {
    method: 'GET',
    path: '/api/admin/whatsapp/media/:id',
    access: 'member',
    async work({ db, params }) {
      const whatsapp = getConfig().whatsapp;
      if (!whatsapp) return jsonError(404, 'Las conversaciones de WhatsApp no están configuradas.');
      const id = params.id;
      if (!isUuid(id)) return jsonError(404, NOT_FOUND);
      const { rows } = await db.query<{ media_id: string; media_mime: string | null; media_filename: string | null }>(
        'SELECT media_id, media_mime, media_filename FROM whatsapp_messages WHERE id = $1 AND media_id IS NOT NULL',
        [id],
      );
      const row = rows[0];
      if (!row) return jsonError(404, NOT_FOUND);
      const filename = (row.media_filename ?? 'archivo').replace(/[^\w.\- ]/g, '_').slice(0, 100);
      const kept = await cachedMedia(db, id);
      if (kept) return served(kept.bytes, kept.type, filename, String(kept.bytes.byteLength));
      let media: MediaBytes;
      let read: Awaited<ReturnType<typeof readUpTo>> | null = null;
      try {
        media = await fetchMedia(whatsapp, row.media_id);
        // Small enough to keep (or of no stated size): read whole, up to the cap; larger ones stream through.
        if (!media.length || Number(media.length) <= MEDIA_CACHE_FILE_MAX) {
          read = await readUpTo(media.body, MEDIA_CACHE_FILE_MAX).catch(() => {
            throw new MediaUnavailable('WhatsApp no entregó el archivo. Inténtalo más tarde.', 502);
          });
        }
      } catch (error) {
        if (!(error instanceof MediaUnavailable)) throw error;
        logJson('warn', { event: 'whatsapp_media_unavailable', message: id, error: error.message });
        return jsonError(error.status, error.message);
      }
      const type = typeOf(media.type ?? row.media_mime);
      if (read && 'bytes' in read) {
        // Keeping it is a saving, not the answer: a failed write (the database busy or full) still serves the file.
        await keepMedia(db, id, { type, bytes: read.bytes }).catch((error: Error) => {
          logJson('warn', { event: 'whatsapp_media_not_kept', message: id, error: error.message });
        });
        return served(read.bytes, type, filename, String(read.bytes.byteLength));
      }
      return served(read?.stream ?? media.body, type, filename, read ? null : media.length);
    },
  },
]);

/** The platform's media type, or a safe one. */
function typeOf(stated: string | null): string {
  const type = (stated ?? 'application/octet-stream').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream';
}

/**
 * The bytes, inline when the browser may show them, sandboxed, never framed
 * and never sniffed, with the headers of every answer of ours; never kept by
 * the browser (no-store): a customer's photo must not outlive the session or
 * their erasure in its cache (decision 0043).
 */
function served(body: BodyInit, type: string, filename: string, length: string | null): Response {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Disposition': `${INLINE.test(type) ? 'inline' : 'attachment'}; filename="${filename}"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
  };
  if (length && /^\d+$/.test(length)) headers['Content-Length'] = length;
  return new Response(body, { status: 200, headers });
}

export const config: Config = { path: '/api/admin/whatsapp/media/:id' };
