-- Issue #25 (decision 0046): a channel's fresh run claims its oldest
-- deliveries by walking one index in order, whatever the planner believes.
--
-- Measured under `bench:api` with every channel on (auto_explain), the fresh
-- claim of decision 0045 took 40-120 ms a run, a tenth of the database's time
-- with a backlog: the deliveries waiting were tens of thousands more than the
-- table's statistics knew (they grow faster than autovacuum analyses), so the
-- planner, expecting a handful, read every waiting delivery of all channels
-- (a full scan of the lead key, or a bitmap scan) and sorted them to take 8.
--
-- 1. The waiting deliveries' index leads with the channel: a channel's oldest
--    waiting are the first entries of its part of the index. Same number of
--    indexes as before (the upkeep's and the overview's queries, over every
--    channel, read it as well).
-- 2. The claim is a function that walks that index in order (no sort, no
--    bitmap: plan settings of the function alone) and stops at the limit.
DROP INDEX notification_deliveries_waiting_idx;
CREATE INDEX notification_deliveries_waiting_idx ON notification_deliveries (channel, updated_at)
  WHERE status IN ('pending', 'sending');

-- The oldest p_limit deliveries of p_channel's leads never tried (and any a
-- dead run left `sending` more than p_lock_timeout_seconds ago), claimed as
-- deliver() claims one (status `sending`, a fresh token), skipping those
-- another run is claiming.
CREATE FUNCTION claim_fresh_deliveries(p_channel text, p_limit integer, p_lock_timeout_seconds integer)
RETURNS SETOF notification_deliveries LANGUAGE sql
SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off
AS $$
  UPDATE notification_deliveries
  SET status = 'sending', claimed_at = now(), claim_id = gen_random_uuid(), attempts = attempts + 1, updated_at = now()
  WHERE id IN (
    SELECT d.id FROM notification_deliveries d
    WHERE d.channel = p_channel AND d.status IN ('pending', 'sending') AND d.purpose = 'lead'
      AND ((d.status = 'pending' AND d.attempts = 0 AND d.claimed_at IS NULL AND d.next_attempt_at IS NULL)
           OR (d.status = 'sending' AND d.claimed_at < now() - make_interval(secs => p_lock_timeout_seconds)))
    ORDER BY d.updated_at
    LIMIT p_limit
    FOR UPDATE SKIP LOCKED)
  RETURNING *
$$;
