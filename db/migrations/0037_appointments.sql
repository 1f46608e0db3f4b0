-- Issue #40, its foundation (decision 0058): advisers' availability and the
-- appointments booked on it. The kinds of appointment and the places (their
-- clocks, hours and holidays) are data, src/data/appointments.json; a kind
-- or a place is named here by its id.
--
-- Double booking is impossible by construction: appointments_no_overlap
-- excludes two appointments of one member whose blocked ranges (the
-- appointment with its buffers before and after) overlap, among those that
-- hold their time (por_pagar, confirmada). A second booking of a taken range
-- fails with 23P01 (exclusion_violation), whatever the timing; the booking
-- service then tries the next free member, or answers 409.

CREATE EXTENSION IF NOT EXISTS btree_gist;

-- Which kinds of appointment a member gives (src/data/appointments.json's ids).
CREATE TABLE member_appointment_kinds (
  member_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind ~ '^[a-z0-9][a-z0-9-]{0,59}$'),
  PRIMARY KEY (member_id, kind)
);

-- A member's weekly hours: on an ISO weekday (1 Monday … 7 Sunday), from
-- `starts` to `ends` on the wall clock of `time_zone` (an IANA zone, the
-- member's; America/Merida unless said). Wall-clock times, because a weekly
-- habit follows the local clock across daylight saving; the slots turn them
-- into instants for each date (src/server/appointments/slots.ts).
CREATE TABLE member_weekly_hours (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  weekday smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
  starts time NOT NULL,
  ends time NOT NULL,
  time_zone text NOT NULL DEFAULT 'America/Merida' CHECK (time_zone ~ '^[A-Za-z_]+(/[A-Za-z0-9_+-]+)+$'),
  CHECK (starts < ends)
);
CREATE INDEX member_weekly_hours_member_idx ON member_weekly_hours (member_id);

-- A member's time off: instants (a holiday abroad, a doctor's visit).
CREATE TABLE member_time_off (
  id uuid DEFAULT uuid_in_time_order() PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  during tstzrange NOT NULL CHECK (NOT isempty(during) AND NOT lower_inf(during) AND NOT upper_inf(during)),
  reason text CHECK (char_length(reason) <= 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_time_off_during_idx ON member_time_off USING gist (member_id, during);

-- An appointment: who (the contact), what (the kind), where (the place),
-- with whom (the member) and when (instants). `blocked` is the time it holds
-- on the member's calendar: [starts_at - buffer before, ends_at + buffer
-- after), stored because the kind's buffers are data that may change later.
-- A paid kind is booked as 'por_pagar' and held until `hold_until`; an
-- expired hold is cancelled by the next booking that needs its time.
CREATE TABLE appointments (
  id uuid DEFAULT uuid_in_time_order() PRIMARY KEY,
  contact_id uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind ~ '^[a-z0-9][a-z0-9-]{0,59}$'),
  place text NOT NULL CHECK (place ~ '^[a-z0-9][a-z0-9-]{0,59}$'),
  -- A removed member's appointments stay, without a member, for the team to give to another.
  member_id uuid REFERENCES users (id) ON DELETE SET NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  blocked tstzrange NOT NULL,
  status text NOT NULL CHECK (status IN ('por_pagar', 'confirmada', 'cancelada', 'asistio', 'no_asistio')),
  source text NOT NULL CHECK (source IN ('sitio', 'panel', 'whatsapp')),
  hold_until timestamptz,
  price_mxn integer CHECK (price_mxn > 0),
  privacy_version text CHECK (privacy_version ~ '^\d{4}-\d{2}-\d{2}$'),
  idempotency_key idempotency_key UNIQUE,
  idempotency_fingerprint text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT appointments_times CHECK (starts_at < ends_at),
  CONSTRAINT appointments_blocked_covers CHECK (
    NOT lower_inf(blocked) AND NOT upper_inf(blocked) AND lower(blocked) <= starts_at AND upper(blocked) >= ends_at
  ),
  CONSTRAINT appointments_hold CHECK (status <> 'por_pagar' OR hold_until IS NOT NULL),
  CONSTRAINT appointments_no_overlap EXCLUDE USING gist (member_id WITH =, blocked WITH &&)
    WHERE (status IN ('por_pagar', 'confirmada'))
);
CREATE INDEX appointments_contact_idx ON appointments (contact_id, starts_at);
CREATE INDEX appointments_member_starts_idx ON appointments (member_id, starts_at);

-- The booking is a line of the contact's history: 'appointment' joins the kinds, after them.
DO $$
DECLARE
  allowed text[];
BEGIN
  -- The check reads CHECK (kind = ANY ('{a,b}'::text[])) since 0018.
  SELECT string_to_array((regexp_match(pg_get_constraintdef(c.oid), '''\{([a-z_,]*)\}'''))[1], ',') INTO allowed
  FROM pg_constraint c
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  IF allowed IS NULL THEN
    RAISE EXCEPTION 'contact_events_kind_check is not in its 0018 form';
  END IF;
  IF NOT 'appointment' = ANY (allowed) THEN
    allowed := allowed || 'appointment'::text;
  END IF;
  ALTER TABLE contact_events DROP CONSTRAINT contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;
