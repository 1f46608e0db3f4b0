-- Lead follow-up (issue #10): every lead belongs to one contact, found by its
-- phone; a contact has a state, a history, notes and a next-contact date.

CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is only STABLE (its dictionary could change); this wrapper with a
-- fixed dictionary is what generated columns and indexes may use.
CREATE FUNCTION immutable_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN unaccent('unaccent'::regdictionary, $1);

CREATE TABLE contacts (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  phone             phone_e164 NOT NULL,
  -- The latest name given, and the latest e-mail and place that were not empty.
  name              person_name NOT NULL,
  email             email_address,
  municipality      place_name,
  is_buyer          boolean NOT NULL DEFAULT false,
  is_partner        boolean NOT NULL DEFAULT false,
  state             text NOT NULL DEFAULT 'nuevo'
                    CHECK (state IN ('nuevo', 'contactado', 'en_seguimiento', 'cerrado_ganado', 'cerrado_perdido')),
  lost_reason       text CHECK (lost_reason IN ('sin_presupuesto', 'sin_terreno', 'eligio_otra_opcion', 'no_responde', 'otro')),
  next_contact_on   date,
  -- utm_*, referrer and landing_path of the first lead, and of the latest lead that had any.
  first_touch       jsonb NOT NULL DEFAULT '{}',
  last_touch        jsonb NOT NULL DEFAULT '{}',
  created_at        timestamptz NOT NULL DEFAULT now(),
  last_activity_at  timestamptz NOT NULL DEFAULT now(),
  -- When the contact first left `nuevo` (the team's response time).
  first_moved_at    timestamptz,
  -- Optimistic concurrency: a change sent with an older version gets 409.
  version           integer NOT NULL DEFAULT 1,
  search_text       text GENERATED ALWAYS AS (
                      immutable_unaccent(lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(municipality, '')))
                      || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')
                    ) STORED,
  CONSTRAINT contacts_phone_key UNIQUE (phone),
  CONSTRAINT contacts_lost_reason CHECK ((state = 'cerrado_perdido') = (lost_reason IS NOT NULL)),
  CONSTRAINT contacts_kind CHECK (is_buyer OR is_partner)
);
CREATE INDEX contacts_activity_idx ON contacts (last_activity_at DESC, id DESC);
CREATE INDEX contacts_state_idx ON contacts (state, last_activity_at DESC);
CREATE INDEX contacts_search_idx ON contacts USING gin (search_text gin_trgm_ops);
CREATE INDEX contacts_campaign_idx ON contacts ((first_touch ->> 'utm_campaign'));
CREATE INDEX contacts_next_contact_idx ON contacts (next_contact_on) WHERE next_contact_on IS NOT NULL;
-- The figures: contacts by week of their first lead, and the ones still waiting.
CREATE INDEX contacts_created_at_idx ON contacts (created_at);
CREATE INDEX contacts_unattended_idx ON contacts (created_at) WHERE state = 'nuevo';

-- Contacts per state, kept exact by a trigger: the panel's state chips read
-- five rows instead of counting the table on every page.
CREATE TABLE contact_state_counts (
  state     text PRIMARY KEY,
  contacts  bigint NOT NULL DEFAULT 0 CHECK (contacts >= 0)
);
INSERT INTO contact_state_counts (state)
VALUES ('nuevo'), ('contactado'), ('en_seguimiento'), ('cerrado_ganado'), ('cerrado_perdido');

CREATE FUNCTION contact_state_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement for both rows: they are locked in index order, so two opposite moves cannot deadlock.
  UPDATE contact_state_counts
     SET contacts = contacts
       + CASE WHEN TG_OP <> 'DELETE' AND state = NEW.state THEN 1 ELSE 0 END
       - CASE WHEN TG_OP <> 'INSERT' AND state = OLD.state THEN 1 ELSE 0 END
   WHERE state IN (CASE WHEN TG_OP <> 'DELETE' THEN NEW.state END, CASE WHEN TG_OP <> 'INSERT' THEN OLD.state END);
  RETURN NULL;
END $$;
CREATE TRIGGER contacts_count_insert_delete AFTER INSERT OR DELETE ON contacts
  FOR EACH ROW EXECUTE FUNCTION contact_state_counts_track();
CREATE TRIGGER contacts_count_state_change AFTER UPDATE OF state ON contacts
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION contact_state_counts_track();

-- Who did what to a contact, and when: state and next-contact changes, reopenings, deleted notes.
-- actor_id is null for the system (a new lead reopening a closed contact).
CREATE TABLE contact_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  contact_id  uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  actor_id    uuid REFERENCES users (id) ON DELETE SET NULL,
  actor_name  text,
  kind        text NOT NULL CHECK (kind IN ('state', 'next_contact', 'reopened', 'note_deleted')),
  from_value  text,
  to_value    text,
  detail      text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_events_contact_idx ON contact_events (contact_id, created_at);

CREATE TABLE contact_notes (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  contact_id   uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  author_id    uuid REFERENCES users (id) ON DELETE SET NULL,
  author_name  text NOT NULL,
  body         text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
  created_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  deleted_by   text
);
CREATE INDEX contact_notes_contact_idx ON contact_notes (contact_id, created_at);

-- Backfill: one contact per phone across every lead stored so far.
WITH leads AS (
  SELECT phone, name, email, NULL::text AS municipality, true AS buyer, false AS partner, created_at,
         jsonb_strip_nulls(jsonb_build_object('utm_source', utm_source, 'utm_medium', utm_medium,
           'utm_campaign', utm_campaign, 'utm_term', utm_term, 'utm_content', utm_content,
           'referrer', referrer, 'landing_path', landing_path)) AS touch
  FROM cotizaciones_rapidas
  UNION ALL
  SELECT phone, name, email, municipality, true, false, created_at,
         jsonb_strip_nulls(jsonb_build_object('utm_source', utm_source, 'utm_medium', utm_medium,
           'utm_campaign', utm_campaign, 'utm_term', utm_term, 'utm_content', utm_content,
           'referrer', referrer, 'landing_path', landing_path))
  FROM quote_requests
  UNION ALL
  SELECT phone, name, NULL, municipality, false, true, created_at,
         jsonb_strip_nulls(jsonb_build_object('utm_source', utm_source, 'utm_medium', utm_medium,
           'utm_campaign', utm_campaign, 'utm_term', utm_term, 'utm_content', utm_content,
           'referrer', referrer, 'landing_path', landing_path))
  FROM partner_applications
)
INSERT INTO contacts (phone, name, email, municipality, is_buyer, is_partner, first_touch, last_touch,
                      created_at, last_activity_at)
SELECT phone,
       (array_agg(name ORDER BY created_at DESC))[1],
       (array_agg(email ORDER BY created_at DESC) FILTER (WHERE email IS NOT NULL))[1],
       (array_agg(municipality ORDER BY created_at DESC) FILTER (WHERE municipality IS NOT NULL))[1],
       bool_or(buyer), bool_or(partner),
       (array_agg(touch ORDER BY created_at))[1],
       coalesce((array_agg(touch ORDER BY created_at DESC) FILTER (WHERE touch <> '{}'))[1], '{}'),
       min(created_at), max(created_at)
FROM leads
GROUP BY phone;

ALTER TABLE cotizaciones_rapidas ADD COLUMN contact_id uuid REFERENCES contacts (id);
ALTER TABLE quote_requests ADD COLUMN contact_id uuid REFERENCES contacts (id);
ALTER TABLE partner_applications ADD COLUMN contact_id uuid REFERENCES contacts (id);
UPDATE cotizaciones_rapidas lead SET contact_id = c.id FROM contacts c WHERE c.phone = lead.phone;
UPDATE quote_requests lead SET contact_id = c.id FROM contacts c WHERE c.phone = lead.phone;
UPDATE partner_applications lead SET contact_id = c.id FROM contacts c WHERE c.phone = lead.phone;
-- A lead stored without its contact (the functions of the previous deploy stay
-- live while this one builds, and they know nothing of contacts) gets one here,
-- before the NOT NULL check: no lead is refused during a deploy.
CREATE FUNCTION leads_attach_contact() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  partner boolean := TG_TABLE_NAME = 'partner_applications';
BEGIN
  IF NEW.contact_id IS NULL THEN
    INSERT INTO contacts AS c (phone, name, is_buyer, is_partner)
    VALUES (NEW.phone, NEW.name, NOT partner, partner)
    ON CONFLICT (phone) DO UPDATE SET name = EXCLUDED.name, last_activity_at = now(),
      is_buyer = c.is_buyer OR EXCLUDED.is_buyer, is_partner = c.is_partner OR EXCLUDED.is_partner
    RETURNING id INTO NEW.contact_id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER cotizaciones_rapidas_contact BEFORE INSERT ON cotizaciones_rapidas
  FOR EACH ROW EXECUTE FUNCTION leads_attach_contact();
CREATE TRIGGER quote_requests_contact BEFORE INSERT ON quote_requests
  FOR EACH ROW EXECUTE FUNCTION leads_attach_contact();
CREATE TRIGGER partner_applications_contact BEFORE INSERT ON partner_applications
  FOR EACH ROW EXECUTE FUNCTION leads_attach_contact();

ALTER TABLE cotizaciones_rapidas ALTER COLUMN contact_id SET NOT NULL;
ALTER TABLE quote_requests ALTER COLUMN contact_id SET NOT NULL;
ALTER TABLE partner_applications ALTER COLUMN contact_id SET NOT NULL;
CREATE INDEX cotizaciones_rapidas_contact_idx ON cotizaciones_rapidas (contact_id, created_at);
CREATE INDEX quote_requests_contact_idx ON quote_requests (contact_id, created_at);
CREATE INDEX partner_applications_contact_idx ON partner_applications (contact_id, created_at);
-- The figures read the last 12 weeks of leads from these alone (index-only scans).
CREATE INDEX cotizaciones_rapidas_metrics_idx ON cotizaciones_rapidas (created_at) INCLUDE (utm_campaign);
CREATE INDEX quote_requests_metrics_idx ON quote_requests (created_at) INCLUDE (source, utm_campaign);
CREATE INDEX partner_applications_metrics_idx ON partner_applications (created_at) INCLUDE (utm_campaign);
