import type { Config } from '@netlify/functions';
import { getConfig } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { jsonError } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { fetchMedia, type MediaBytes, MediaUnavailable } from '../../src/server/whatsapp/cloud-api.ts';

/** Shown in the page: the browser may play or show these; anything else is downloaded. */
const INLINE = /^(image\/(jpeg|png|webp)|audio\/(ogg|mpeg|mp4|aac|amr)|video\/(mp4|3gpp))$/;

/**
 * GET /api/admin/whatsapp/media/{messageId} (members): a message's photo,
 * audio, video, document or sticker, fetched from the platform with the
 * token when opened (cloud-api.ts: only from the configured media hosts),
 * never a public URL. Served sandboxed and never sniffed: a file someone sent
 * us cannot run as a page of ours.
 */
export default endpoints('admin-whatsapp-media', [
  {
    method: 'GET',
    path: '/api/admin/whatsapp/media/:id([0-9a-fA-F-]{36})',
    access: 'member',
    async work({ db, params }) {
      const whatsapp = getConfig().whatsapp;
      if (!whatsapp) return jsonError(404, 'Las conversaciones de WhatsApp no están configuradas.');
      const { rows } = await db.query<{ media_id: string; media_mime: string | null; media_filename: string | null }>(
        'SELECT media_id, media_mime, media_filename FROM whatsapp_messages WHERE id = $1 AND media_id IS NOT NULL',
        [params.id],
      );
      const row = rows[0];
      if (!row) return jsonError(404, 'Este mensaje no tiene archivo.');
      let media: MediaBytes;
      try {
        media = await fetchMedia(whatsapp, row.media_id);
      } catch (error) {
        if (!(error instanceof MediaUnavailable)) throw error;
        logJson('warn', { event: 'whatsapp_media_unavailable', message: params.id ?? null, error: error.message });
        return jsonError(error.status, error.message);
      }
      const type = (media.type ?? row.media_mime ?? 'application/octet-stream')
        .split(';')[0]
        ?.trim()
        .toLowerCase() as string;
      const inline = INLINE.test(type);
      const filename = (row.media_filename ?? 'archivo').replace(/[^\w.\- ]/g, '_').slice(0, 100);
      const headers: Record<string, string> = {
        'Content-Type': /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream',
        'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${filename}"`,
        'Cache-Control': 'private, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "sandbox; default-src 'none'",
      };
      const length = media.length;
      if (length && /^\d+$/.test(length)) headers['Content-Length'] = length;
      return new Response(media.body, { status: 200, headers });
    },
  },
]);

export const config: Config = { path: '/api/admin/whatsapp/media/:id' };
