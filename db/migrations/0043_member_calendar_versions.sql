-- Issue #40's budgets (decision 0064): the free slots read a member's
-- calendar (weekly hours, time off, held appointments) from a cache kept in
-- the function's memory, checked against the member's calendar version: a
-- number every change of that calendar raises, in the transaction of the
-- change. A reader sees a version only once its change has committed, and
-- fetches the calendar after reading the version, so a cached calendar is
-- never older than the version it is kept under.
--
-- No foreign key: a member's row is removed with their calendar (ON DELETE
-- CASCADE, SET NULL on appointments), and those removals bump it too.
CREATE TABLE member_calendar_versions (
  member_id uuid PRIMARY KEY,
  version bigint NOT NULL DEFAULT 1
);

CREATE FUNCTION bump_member_calendar() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.member_id IS NOT NULL THEN
    INSERT INTO member_calendar_versions AS v (member_id) VALUES (OLD.member_id)
    ON CONFLICT (member_id) DO UPDATE SET version = v.version + 1;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.member_id IS NOT NULL
     AND (TG_OP = 'INSERT' OR NEW.member_id IS DISTINCT FROM OLD.member_id) THEN
    INSERT INTO member_calendar_versions AS v (member_id) VALUES (NEW.member_id)
    ON CONFLICT (member_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;

COMMENT ON FUNCTION bump_member_calendar() IS
  'Raises the calendar version of the member(s) of a changed row (member_calendar_versions, decision 0064).';

CREATE TRIGGER appointments_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE TRIGGER member_weekly_hours_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_weekly_hours
  FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE TRIGGER member_time_off_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_time_off
  FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();

-- 0036's adapters for the deploy that served while it was built: that deploy is gone.
DROP FUNCTION store_lead(text, jsonb, jsonb, text, text, text, text[], text[], text, text, integer, integer, jsonb);
DROP FUNCTION store_leads(jsonb);
