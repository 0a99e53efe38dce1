-- Observation: a per-owner cursor over events, batches with leases, failures, consumed marks, memories.

-- Per owner: where the next batch starts (event seq + byte offset into its UTF-8 text), the highest
-- event seq seen, and the last publish sequence.
CREATE TABLE observation_owners (
  owner TEXT PRIMARY KEY,
  next_seq INTEGER NOT NULL DEFAULT 0,
  next_offset INTEGER NOT NULL DEFAULT 0,
  seen_seq INTEGER NOT NULL DEFAULT 0,
  publish_seq INTEGER NOT NULL DEFAULT 0
);

-- The highest event seq the selector has looked at (new owners are found above it).
CREATE TABLE observation_scan (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL
);
INSERT INTO observation_scan (id, last_seq) VALUES (1, 0);

-- A batch is claimable when state is queued or leased and next_attempt_at <= now
-- (for a leased batch next_attempt_at is its lease expiry); seq orders batches by creation.
CREATE TABLE observation_batches (
  seq INTEGER PRIMARY KEY,
  batch_id TEXT NOT NULL UNIQUE,
  owner TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'leased', 'published')),
  closed_by TEXT NOT NULL CHECK (closed_by IN ('size', 'bytes', 'terminal', 'wait', 'split')),
  event_count INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  claims INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT,
  lease_expires_at INTEGER,
  published_at INTEGER,
  publish_seq INTEGER,
  receipt TEXT,
  model_calls INTEGER NOT NULL DEFAULT 0,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX observation_batches_claimable ON observation_batches (state, next_attempt_at, seq);
CREATE INDEX observation_batches_owner ON observation_batches (owner, state);

-- What a batch holds: a byte range of one event each; same_as points at an item with identical text.
CREATE TABLE observation_items (
  batch_id TEXT NOT NULL REFERENCES observation_batches (batch_id),
  position INTEGER NOT NULL,
  seq INTEGER NOT NULL REFERENCES events (seq),
  event_id TEXT NOT NULL,
  byte_start INTEGER NOT NULL,
  byte_end INTEGER NOT NULL,
  byte_length INTEGER NOT NULL,
  same_as INTEGER,
  disposition TEXT CHECK (disposition IN ('cited', 'discarded')),
  reason TEXT,
  PRIMARY KEY (batch_id, position)
);
CREATE INDEX observation_items_seq ON observation_items (seq);

-- The last five failures of each batch (older ones are pruned; the count stays on the batch).
CREATE TABLE observation_failures (
  failure_id INTEGER PRIMARY KEY,
  batch_id TEXT NOT NULL REFERENCES observation_batches (batch_id),
  at INTEGER NOT NULL,
  code TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX observation_failures_batch ON observation_failures (batch_id, failure_id);

-- Consumed marks: an event is consumed once every part of it is published, or when it is filtered.
CREATE TABLE observation_consumed (
  owner TEXT NOT NULL,
  seq INTEGER NOT NULL REFERENCES events (seq),
  event_id TEXT NOT NULL,
  batch_id TEXT REFERENCES observation_batches (batch_id),
  disposition TEXT NOT NULL CHECK (disposition IN ('cited', 'discarded', 'filtered')),
  reason TEXT,
  consumed_at INTEGER NOT NULL,
  PRIMARY KEY (owner, seq)
);

-- Memories: derived, evidence-backed items.
CREATE TABLE memories (
  memory_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('episode', 'fact', 'preference', 'procedure')),
  status TEXT NOT NULL CHECK (status IN ('candidate', 'active', 'deprecated', 'revoked')),
  text TEXT NOT NULL,
  fact_kind TEXT CHECK (fact_kind IN ('profile', 'project', 'environment')),
  subject TEXT,
  predicate TEXT,
  object TEXT,
  procedure TEXT,
  quotes TEXT,
  cues TEXT,
  at INTEGER NOT NULL,
  session_id TEXT,
  task_id TEXT,
  batch_id TEXT NOT NULL REFERENCES observation_batches (batch_id),
  publish_seq INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (memory_id, owner)
);
CREATE INDEX memories_owner_kind ON memories (owner, kind, at);
CREATE INDEX memories_batch ON memories (batch_id);

-- invariant: every source is an event of the memory's own owner, enforced by both foreign keys
-- (test: "refuses a source event of another owner at the storage level too").
CREATE TABLE memory_sources (
  memory_id TEXT NOT NULL,
  owner TEXT NOT NULL,
  event_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (memory_id, event_id),
  FOREIGN KEY (memory_id, owner) REFERENCES memories (memory_id, owner),
  FOREIGN KEY (owner, event_id) REFERENCES events (owner, event_id)
);
CREATE INDEX memory_sources_event ON memory_sources (owner, event_id);

-- invariant: published memories are append-only: content and sources never change or vanish
-- (test: "keeps published memories append-only").
CREATE TRIGGER memories_append_only_update BEFORE UPDATE OF memory_id, owner, kind, text, fact_kind, subject, predicate, object, procedure, quotes, batch_id ON memories
BEGIN
  SELECT RAISE(ABORT, 'memories are append-only');
END;
CREATE TRIGGER memories_append_only_delete BEFORE DELETE ON memories
BEGIN
  SELECT RAISE(ABORT, 'memories are append-only');
END;
CREATE TRIGGER memory_sources_append_only_update BEFORE UPDATE ON memory_sources
BEGIN
  SELECT RAISE(ABORT, 'memory sources are append-only');
END;
CREATE TRIGGER memory_sources_append_only_delete BEFORE DELETE ON memory_sources
BEGIN
  SELECT RAISE(ABORT, 'memory sources are append-only');
END;
