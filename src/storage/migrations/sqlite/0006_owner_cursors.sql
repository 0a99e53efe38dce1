-- Cursors per owner (issue 9): with several writers (PostgreSQL), sequences of different owners commit out
-- of order, so no cursor may run over all owners' events. Ingest keeps each owner's event count and last
-- sequence here, under the owner's lock; observation finds owners with new events from it.
CREATE TABLE event_owners (
  owner TEXT PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  events INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO event_owners (owner, last_seq, events) SELECT owner, max(seq), count(*) FROM events GROUP BY owner;

DROP TABLE observation_scan;
