-- Indexes that answer the panel's counts by themselves (issue #39: bench:admin back within its budgets).
--
-- Métricas and the search for a common word ("merida": every fourth contact) had grown to read the rows of
-- contacts (about 750 bytes each) to count them: the response time and "contactados en 24 h" read
-- first_moved_at and first_replied_at of every contact of the last weeks, "sin atender" first_replied_at of
-- every new contact, and a search counted its matches per state by reading search_text row by row. Each
-- index below now carries the column its count filters on (INCLUDE), so the count is an index-only scan:
-- Métricas went from about 125 ms of database work to about 40 on 100,000 contacts, the search's counts from
-- about 30 ms to 2 (docs/benchmarks.md, bench:admin). Same keys as before, so every other query keeps its
-- plan; no new index, so a lead's insert maintains as many indexes as before (each of these entries is
-- wider: the search text is about 50 bytes).
DROP INDEX contacts_state_idx;
CREATE INDEX contacts_state_idx ON contacts (state, last_activity_at DESC) INCLUDE (search_text);

DROP INDEX contacts_created_at_idx;
CREATE INDEX contacts_created_at_idx ON contacts (created_at) INCLUDE (first_moved_at, first_replied_at);

DROP INDEX contacts_unattended_idx;
CREATE INDEX contacts_unattended_idx ON contacts (created_at) INCLUDE (first_replied_at) WHERE state = 'nuevo';
