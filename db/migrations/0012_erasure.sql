-- Erasing a person on their request (ARCO cancellation, issue #14). The
-- activity log stays append-only for the application, with one exception:
-- inside the erasure's transaction (SET LOCAL ceiba.erasure = 'on'), the
-- summary and details of the entries that named the person may be rewritten
-- (their name becomes "[persona eliminada]"); who did what, and when, stays.
CREATE OR REPLACE FUNCTION activity_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('ceiba.erasure', true) = 'on'
     AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.kind = OLD.kind
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.actor_name IS NOT DISTINCT FROM OLD.actor_name
     AND NEW.ip IS NOT DISTINCT FROM OLD.ip THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'activity_log is append-only';
END;
$$;
