-- Issue #27 (decision 0043): a media's bytes kept after its first open, so the next opens do not
-- ask the platform again (and still work after the platform's 30 days). A table, not a disk: Netlify's
-- functions share no disk. Bounded: only files up to 5 MB are kept, and the least recently opened go
-- once the whole passes 100 MB (src/server/whatsapp/media-cache.ts). The bytes are the person's: they
-- go with their message (ON DELETE CASCADE), so with the contact's erasure.
CREATE TABLE whatsapp_media_cache (
  message_id    uuid PRIMARY KEY REFERENCES whatsapp_messages (id) ON DELETE CASCADE,
  content_type  text NOT NULL CHECK (char_length(content_type) BETWEEN 1 AND 200),
  bytes         bytea NOT NULL,
  size          integer NOT NULL CHECK (size >= 0),
  fetched_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz NOT NULL DEFAULT now()
);
-- The eviction's order (least recently opened first).
CREATE INDEX whatsapp_media_cache_used_idx ON whatsapp_media_cache (last_used_at DESC, message_id) INCLUDE (size);
