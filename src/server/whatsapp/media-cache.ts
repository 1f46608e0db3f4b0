import type { Queryable } from '../db/database.ts';

/**
 * A media's bytes kept after its first open (issue #27: "fetched when first
 * opened"; decision 0043): a table, since Netlify's functions share no disk.
 * Bounded: a file over FILE_MAX is served as it streams and never kept; once
 * the kept files pass TOTAL_MAX the least recently opened go. The rows go
 * with their message (ON DELETE CASCADE), so with the person's erasure.
 */
export const MEDIA_CACHE_FILE_MAX = 5 * 1024 * 1024;
export const MEDIA_CACHE_TOTAL_MAX = 100 * 1024 * 1024;

export interface CachedMedia {
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** The kept bytes of a message's media, or null; an open marks it used (at most once a minute, to spare writes). */
export async function cachedMedia(db: Queryable, messageId: string): Promise<CachedMedia | null> {
  // pg's bytea is a Buffer: a Uint8Array over an ArrayBuffer.
  const { rows } = await db.query<{ content_type: string; bytes: Uint8Array<ArrayBuffer> }>(
    `WITH hit AS (
       SELECT message_id, content_type, bytes, last_used_at FROM whatsapp_media_cache WHERE message_id = $1
     ), touched AS (
       UPDATE whatsapp_media_cache c SET last_used_at = now() FROM hit
        WHERE c.message_id = hit.message_id AND hit.last_used_at < now() - interval '1 minute'
     )
     SELECT content_type, bytes FROM hit`,
    [messageId],
  );
  const row = rows[0];
  return row ? { type: row.content_type, bytes: row.bytes } : null;
}

/** Keeps a media's bytes (a second open at once keeps the first one's), then drops the least recently opened beyond the cap. */
export async function keepMedia(
  db: Queryable,
  messageId: string,
  media: CachedMedia,
  limits = { file: MEDIA_CACHE_FILE_MAX, total: MEDIA_CACHE_TOTAL_MAX },
): Promise<void> {
  if (media.bytes.byteLength > limits.file) return;
  await db.query(
    `INSERT INTO whatsapp_media_cache (message_id, content_type, bytes, size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (message_id) DO NOTHING`,
    [messageId, media.type, media.bytes, media.bytes.byteLength],
  );
  await db.query(
    `DELETE FROM whatsapp_media_cache WHERE message_id IN (
       SELECT message_id FROM (
         SELECT message_id, sum(size) OVER (ORDER BY last_used_at DESC, message_id) AS running FROM whatsapp_media_cache
       ) AS kept WHERE running > $1)`,
    [limits.total],
  );
}

/**
 * Reads a body up to `max` bytes: the whole of it when it fits; otherwise a
 * stream of what was read and the rest, so a large file is still served
 * without being held in memory whole.
 */
export async function readUpTo(
  body: ReadableStream<Uint8Array>,
  max: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer> } | { stream: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.byteLength;
      }
      return { bytes };
    }
    chunks.push(value);
    size += value.byteLength;
    if (size > max) {
      return {
        stream: new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
          },
          async pull(controller) {
            const next = await reader.read();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          },
          cancel: (reason) => reader.cancel(reason),
        }),
      };
    }
  }
}
