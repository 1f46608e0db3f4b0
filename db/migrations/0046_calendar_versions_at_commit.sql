-- Issue #40 (decision 0081): a member's calendar version is raised when the
-- change commits, and only by a change the calendar shows.
--
-- 0040's row triggers raised member_calendar_versions at the change's own
-- statement, so the version row stayed locked for the rest of the
-- transaction: a booking locked its member's row at its insert and held it
-- through the pipeline's move, the queue's jobs and the round trips between
-- them, and every other booking given to the same member (the one with the
-- fewest appointments, the same for bookings made at once) waited for that
-- commit, whatever its slot. As constraint triggers deferred to the commit,
-- the same function raises the same versions in the same transaction, so a
-- reader still sees a change and its version together, but the row is
-- locked only while the transaction commits. Double booking is still refused
-- at the insert, by the exclusion constraint appointments_no_overlap.
--
-- An update of an appointment raised the version whatever it changed (the
-- calendar file's sequence, updated_at), and so threw away the member's
-- calendar kept in memory (decision 0064). It now raises it only when what
-- a calendar reads of it changes: its member, its held time, its status or
-- its hold.
DROP TRIGGER appointments_bump_calendar ON appointments;
DROP TRIGGER member_weekly_hours_bump_calendar ON member_weekly_hours;
DROP TRIGGER member_time_off_bump_calendar ON member_time_off;

CREATE CONSTRAINT TRIGGER appointments_bump_calendar AFTER INSERT OR DELETE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE CONSTRAINT TRIGGER appointments_bump_calendar_on_change AFTER UPDATE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.member_id IS DISTINCT FROM NEW.member_id OR OLD.blocked IS DISTINCT FROM NEW.blocked
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.hold_until IS DISTINCT FROM NEW.hold_until)
  EXECUTE FUNCTION bump_member_calendar();
CREATE CONSTRAINT TRIGGER member_weekly_hours_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_weekly_hours
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE CONSTRAINT TRIGGER member_time_off_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_time_off
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
