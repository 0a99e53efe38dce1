-- Organize (issue 12): the timeline's nodes over events, the archive queue, durable organize jobs with
-- leases, receipts and their last failures, and the core documents with every version and conflict.

-- Per owner: every event with seq <= covered_seq is under a node; events in (covered_seq, scanned_seq]
-- hold raw_tokens (the portable estimate) in raw_events; version counts replacements of the timeline.
CREATE TABLE organize_owners (
  owner TEXT PRIMARY KEY,
  covered_seq INTEGER NOT NULL DEFAULT 0,
  scanned_seq INTEGER NOT NULL DEFAULT 0,
  raw_tokens INTEGER NOT NULL DEFAULT 0,
  raw_events INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 0,
  synced_at INTEGER,
  organize_queued_at INTEGER,
  deep_workday TEXT
) WITHOUT ROWID;

-- A node summarises a contiguous range of its owner's events: level 1 the events themselves, level n + 1
-- nodes below it (their parent_id). Active nodes have no parent.
CREATE TABLE memory_nodes (
  node_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  level INTEGER NOT NULL CHECK (level >= 1),
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  events INTEGER NOT NULL,
  children INTEGER NOT NULL,
  text TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  summarizer TEXT NOT NULL,
  job_id TEXT NOT NULL,
  parent_id TEXT,
  created_at INTEGER NOT NULL,
  CHECK (first_seq <= last_seq)
);
CREATE INDEX memory_nodes_active ON memory_nodes (owner, first_seq) WHERE parent_id IS NULL;
CREATE INDEX memory_nodes_parent ON memory_nodes (parent_id, first_seq) WHERE parent_id IS NOT NULL;

-- invariant: a node never changes once written, but for being covered once by the node above it
-- (test: test/organize/compaction.test.ts "…nodes refuse to change").
CREATE TRIGGER memory_nodes_append_only_update
  BEFORE UPDATE OF node_id, owner, level, first_seq, last_seq, first_at, last_at, events, children, text, tokens, job_id, created_at
  ON memory_nodes
BEGIN
  SELECT RAISE(ABORT, 'memory nodes are append-only');
END;
CREATE TRIGGER memory_nodes_covered_once BEFORE UPDATE OF parent_id ON memory_nodes
  WHEN old.parent_id IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'a memory node is covered once');
END;
CREATE TRIGGER memory_nodes_append_only_delete BEFORE DELETE ON memory_nodes
BEGIN
  SELECT RAISE(ABORT, 'memory nodes are append-only');
END;

-- Events newly covered by a level-1 node, waiting for an organize run to dispose of them.
CREATE TABLE organize_archive (
  entry_id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  node_id TEXT NOT NULL REFERENCES memory_nodes (node_id),
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  queued_at INTEGER NOT NULL,
  disposition TEXT CHECK (disposition IN ('archive_only')),
  job_id TEXT,
  disposed_at INTEGER
);
CREATE INDEX organize_archive_pending ON organize_archive (owner, entry_id) WHERE disposed_at IS NULL;

-- A job is claimable when queued or leased and next_attempt_at <= now (a leased job's is its lease expiry).
-- step_* describe what the current lease asks for; batch_limit halves with each failure.
CREATE TABLE organize_jobs (
  seq INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL UNIQUE,
  owner TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('compact', 'organize', 'deep')),
  trigger TEXT NOT NULL CHECK (trigger IN ('threshold', 'request', 'hourly', 'nightly')),
  state TEXT NOT NULL CHECK (state IN ('queued', 'leased', 'done', 'failed')),
  workday TEXT,
  keep_tokens INTEGER,
  batch_limit INTEGER NOT NULL CHECK (batch_limit >= 1),
  created_at INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  claims INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  steps INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT,
  lease_expires_at INTEGER,
  step_type TEXT CHECK (step_type IN ('compact', 'archive')),
  step_items TEXT,
  step_version INTEGER,
  finished_at INTEGER,
  notice TEXT CHECK (notice IN ('pending', 'acked')),
  acked_at INTEGER,
  model_calls INTEGER NOT NULL DEFAULT 0,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX organize_jobs_claimable ON organize_jobs (state, next_attempt_at, seq);
CREATE INDEX organize_jobs_owner ON organize_jobs (owner, state);
-- One live job per owner and kind: a trigger or a request for a kind already queued joins it.
CREATE UNIQUE INDEX organize_jobs_live ON organize_jobs (owner, kind) WHERE state IN ('queued', 'leased');

-- The first receipt of each committed step, by the token that committed it.
CREATE TABLE organize_receipts (
  job_id TEXT NOT NULL REFERENCES organize_jobs (job_id),
  token TEXT NOT NULL,
  owner TEXT NOT NULL,
  step INTEGER NOT NULL,
  receipt TEXT NOT NULL,
  committed_at INTEGER NOT NULL,
  PRIMARY KEY (job_id, token)
);

-- The last five failures of each job (older ones are pruned; the count stays on the job).
CREATE TABLE organize_failures (
  failure_id INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL REFERENCES organize_jobs (job_id),
  owner TEXT NOT NULL,
  at INTEGER NOT NULL,
  code TEXT NOT NULL,
  reason TEXT NOT NULL,
  batch_limit INTEGER NOT NULL
);
CREATE INDEX organize_failures_job ON organize_failures (job_id, failure_id);

-- Core documents: the current revision of each, every version, and edits that could not be applied.
CREATE TABLE core_docs (
  owner TEXT NOT NULL,
  doc TEXT NOT NULL CHECK (doc IN ('SOUL', 'USER', 'AGENTS')),
  revision INTEGER NOT NULL,
  text TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (owner, doc)
) WITHOUT ROWID;

CREATE TABLE core_versions (
  owner TEXT NOT NULL,
  doc TEXT NOT NULL,
  revision INTEGER NOT NULL,
  text TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('bootstrap', 'update', 'file')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (owner, doc, revision)
) WITHOUT ROWID;

-- invariant: every version of a core document is kept unchanged (test: test/organize/core.test.ts).
CREATE TRIGGER core_versions_append_only_update BEFORE UPDATE ON core_versions
BEGIN
  SELECT RAISE(ABORT, 'core document versions are append-only');
END;
CREATE TRIGGER core_versions_append_only_delete BEFORE DELETE ON core_versions
BEGIN
  SELECT RAISE(ABORT, 'core document versions are append-only');
END;

CREATE TABLE core_conflicts (
  conflict_id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  doc TEXT NOT NULL,
  base_revision INTEGER,
  current_revision INTEGER NOT NULL,
  reason TEXT NOT NULL,
  text TEXT NOT NULL,
  digest TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (owner, doc, digest)
);
