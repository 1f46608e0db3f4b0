-- Issue #25 (decision 0046): the rows written for every lead get ids in time
-- order (UUID version 7, RFC 9562: 48 bits of milliseconds, then random), so
-- each new row's index entries go at the right edge of their B-trees (the
-- primary keys, the deliveries' lead key and contact index) instead of on a
-- random page each. Measured in one session, storing a lead's three
-- deliveries cost about 12 µs less with them. They are as unguessable as an
-- id needs to be here (74 random bits; every id is checked against its
-- session's rights anyway) and tell only when the row was made, which its
-- created_at says already. Decoy answers to bots use the same form
-- (lead-handler.ts, decoyId).
--
-- PostgreSQL 18 has uuidv7(); on 14-17 (README: any PostgreSQL 14 or newer)
-- the same layout is made from gen_random_uuid() and the clock, by
-- uuid_in_time_order() (made on every version, so its tests run here too).
CREATE FUNCTION uuid_in_time_order() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
    FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;

DO $$
DECLARE
  generator text := CASE WHEN current_setting('server_version_num')::integer >= 180000
                         THEN 'uuidv7()' ELSE 'uuid_in_time_order()' END;
  target text;
BEGIN
  FOREACH target IN ARRAY ARRAY['cotizaciones_rapidas', 'quote_requests', 'partner_applications', 'voice_calls',
                                'contacts', 'notification_deliveries'] LOOP
    EXECUTE format('ALTER TABLE %I ALTER COLUMN id SET DEFAULT %s', target, generator);
  END LOOP;
END
$$;
