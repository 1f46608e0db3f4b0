-- A member's clock kept with the member (team review, 2026-12-01).
--
-- The zone a member's availability is written in lived only on their weekly hours' rows: a member who
-- saved "Berlín" with no weekly hours (time off only, or hours to be set later) came back on Mérida's
-- clock, and the time off they typed next, 09:00, was stored as 09:00 in Mérida, seven hours off. The
-- editor saves the zone here too, and reads it from here first.
CREATE TABLE member_time_zones (
  member_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  time_zone text NOT NULL CHECK (time_zone ~ '^[A-Za-z_]+(/[A-Za-z0-9_+-]+)+$'),
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO member_time_zones (member_id, time_zone)
SELECT DISTINCT ON (member_id) member_id, time_zone FROM member_weekly_hours ORDER BY member_id, id;
