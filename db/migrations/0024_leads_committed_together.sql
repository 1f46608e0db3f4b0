-- Issue #25 (decision 0044): leads that arrive together are stored together.
-- The local server's requests share one pool; when several leads are waiting
-- for it at once, they go as one statement, one transaction, one commit
-- (`store_leads`), instead of one transaction each: measured with pgbench on
-- this machine, ten store_lead() calls in one transaction stored about 2.5
-- times as many leads a second as ten transactions of one.
--
-- Each lead runs store_lead() in a subtransaction of its own (a BEGIN …
-- EXCEPTION block): one lead's error undoes only that lead, and comes back in
-- its place as {"error": {"code", "message", "hint"}} for its own request to
-- answer (503, or a retry on its own after a deadlock); the others are stored
-- and committed. `p_leads` is an array of store_lead()'s thirteen arguments,
-- in its order (arrays as JSON arrays, the first reply as JSON or null);
-- the answer, an array in the same order, {"stored": store_lead()'s answer}
-- or {"error": …}. A lead that waits more than 2 s for a lock (a contact held
-- by someone's long change) gives up with 55P03 instead of holding up the
-- others; its request tries it again on its own, where it may wait as long as
-- any statement.
CREATE FUNCTION store_leads(p_leads jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  lead jsonb;
  results jsonb[] := '{}';
  failed_code text;
  failed_message text;
  failed_hint text;
BEGIN
  PERFORM set_config('lock_timeout', '2s', true);
  FOR lead IN SELECT value FROM jsonb_array_elements(p_leads) LOOP
    BEGIN
      results := results || jsonb_build_object('stored', store_lead(
        lead ->> 0, lead -> 1, lead -> 2, lead ->> 3, lead ->> 4, lead ->> 5,
        ARRAY(SELECT jsonb_array_elements_text(lead -> 6)),
        ARRAY(SELECT jsonb_array_elements_text(lead -> 7)),
        lead ->> 8, lead ->> 9, (lead ->> 10)::integer, (lead ->> 11)::integer,
        CASE WHEN jsonb_typeof(lead -> 12) = 'object' THEN lead -> 12 END));
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS failed_code = RETURNED_SQLSTATE, failed_message = MESSAGE_TEXT,
        failed_hint = PG_EXCEPTION_HINT;
      results := results || jsonb_build_object('error',
        jsonb_build_object('code', failed_code, 'message', failed_message, 'hint', nullif(failed_hint, '')));
    END;
  END LOOP;
  RETURN to_jsonb(results);
END $$;
