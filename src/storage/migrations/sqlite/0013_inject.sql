-- Proactive memory, part 2 (issue 13): per-session state (the working-memory ring, the context cursor, the
-- interaction sequence, cooldowns), recall requests that outlived their wait budget, the inbox, packet
-- feedback and the audit of gate decisions. Audit rows hold ids, digests and numbers, never memory text.
CREATE TABLE inject_sessions (
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  interaction_seq INTEGER NOT NULL DEFAULT 0,
  context_cursor INTEGER NOT NULL DEFAULT 0,
  inbox_seq INTEGER NOT NULL DEFAULT 0,
  cooldowns TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (owner, session_id)
);

-- The ring: a segment's index terms and entity keys (of its redacted text), never the text itself.
CREATE TABLE working_segments (
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  context_cursor INTEGER NOT NULL,
  kind TEXT NOT NULL,
  ok INTEGER,
  digest TEXT NOT NULL,
  terms TEXT NOT NULL,
  entities TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (owner, session_id, context_cursor)
);

CREATE TABLE recall_requests (
  request_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  session_id TEXT,
  interaction_seq INTEGER,
  purpose TEXT NOT NULL CHECK (purpose IN ('recall', 'prefetch')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'stale', 'failed')),
  params_digest TEXT NOT NULL,
  index_mark TEXT NOT NULL,
  result TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX recall_requests_cache ON recall_requests (owner, params_digest, finished_at);
CREATE INDEX recall_requests_pending ON recall_requests (status, expires_at);
CREATE INDEX recall_requests_session ON recall_requests (owner, session_id, purpose, status);

CREATE TABLE inbox_items (
  item_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  wake INTEGER NOT NULL,
  source_role TEXT NOT NULL,
  source TEXT,
  text TEXT,
  quoted INTEGER NOT NULL,
  task_id TEXT,
  control_revision INTEGER,
  request_id TEXT,
  interaction_seq INTEGER,
  digest TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'replaced', 'stale')),
  created_at INTEGER NOT NULL,
  claimed_at INTEGER,
  claim_id TEXT,
  UNIQUE (owner, session_id, digest),
  UNIQUE (owner, session_id, seq)
);
CREATE INDEX inbox_items_pending ON inbox_items (owner, session_id, status, seq);
CREATE INDEX inbox_items_task ON inbox_items (owner, session_id, task_id);
CREATE INDEX inbox_items_unclaimed ON inbox_items (status, owner, created_at);

CREATE TABLE packet_feedback (
  owner TEXT NOT NULL,
  packet_id TEXT NOT NULL,
  session_id TEXT,
  trigger_kind TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('used', 'ignored', 'harmful')),
  at INTEGER NOT NULL,
  PRIMARY KEY (owner, packet_id)
);
CREATE INDEX packet_feedback_session ON packet_feedback (owner, session_id, trigger_kind);

CREATE TABLE inject_audit (
  audit_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  session_id TEXT,
  packet_id TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('gate', 'packet')),
  trigger_kind TEXT,
  action TEXT NOT NULL,
  reason TEXT NOT NULL,
  score REAL,
  signals TEXT NOT NULL,
  sources TEXT NOT NULL,
  digest TEXT,
  context_cursor INTEGER,
  bytes INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  request_id TEXT,
  outcome TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER
);
CREATE INDEX inject_audit_session ON inject_audit (owner, session_id, created_at);
CREATE INDEX inject_audit_packet ON inject_audit (owner, packet_id);
