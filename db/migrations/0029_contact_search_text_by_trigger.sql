-- Issue #25 (decision 0047): a contact's search text is written by a
-- BEFORE trigger instead of being a generated column; it holds the same text.
--
-- A stored generated column's expression is read back from the catalog
-- (stringToNode) and planned again, immutable_unaccent() inlined from its SQL
-- body, at the start of every statement that writes a contact: every lead's
-- touch_contact() is such a statement. Measured in one session
-- (store_leads() of 12 new contacts at a time), that start-up was about 7% of
-- a lead's time in PostgreSQL (374 µs a lead with the column, 345 µs with
-- this trigger), where the trigger's expression is planned once per session.
--
-- The text is the column's as before, written on every INSERT and on every
-- UPDATE that names one of its four columns (so no write can leave it stale;
-- a value written to search_text itself is replaced). The rows already stored
-- keep theirs (DROP EXPRESSION keeps the values), and the trigram index stays.
ALTER TABLE contacts ALTER COLUMN search_text DROP EXPRESSION;

CREATE FUNCTION contacts_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := immutable_unaccent(lower(NEW.name || ' ' || coalesce(NEW.email, '') || ' ' || coalesce(NEW.municipality, '')))
    || ' ' || regexp_replace(NEW.phone, '[^0-9]', '', 'g');
  RETURN NEW;
END $$;

CREATE TRIGGER contacts_search_text BEFORE INSERT OR UPDATE OF name, email, municipality, phone, search_text ON contacts
  FOR EACH ROW EXECUTE FUNCTION contacts_search_text();
