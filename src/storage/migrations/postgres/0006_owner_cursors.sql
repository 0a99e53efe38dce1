-- PostgreSQL twin of sqlite/0006_owner_cursors.sql: each owner's event count and last sequence, kept by
-- ingest under the owner's lock (pg_advisory_xact_lock), so per-owner cursors never skip a late commit.
CREATE TABLE event_owners (
  owner TEXT PRIMARY KEY,
  last_seq BIGINT NOT NULL,
  events BIGINT NOT NULL
);
INSERT INTO event_owners (owner, last_seq, events) SELECT owner, max(seq), count(*) FROM events GROUP BY owner;
ALTER TABLE event_owners ENABLE ROW LEVEL SECURITY;
ALTER TABLE event_owners FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON event_owners USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));

DROP TABLE observation_scan;
