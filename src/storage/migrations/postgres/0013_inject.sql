-- PostgreSQL twin of sqlite/0013_inject.sql. Proactive memory, part 2 (issue 13): per-session state (the working-memory ring, the context cursor, the
-- interaction sequence, cooldowns), recall requests that outlived their wait budget, the inbox, packet
-- feedback and the audit of gate decisions. Audit rows hold ids, digests and numbers, never memory text.
CREATE TABLE inject_sessions (
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  interaction_seq BIGINT NOT NULL DEFAULT 0,
  context_cursor BIGINT NOT NULL DEFAULT 0,
  inbox_seq BIGINT NOT NULL DEFAULT 0,
  cooldowns TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (owner, session_id)
);

-- The ring: a segment's index terms and entity keys (of its redacted text), never the text itself.
CREATE TABLE working_segments (
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  context_cursor BIGINT NOT NULL,
  kind TEXT NOT NULL,
  ok BIGINT,
  digest TEXT NOT NULL,
  terms TEXT NOT NULL,
  entities TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (owner, session_id, context_cursor)
);

CREATE TABLE recall_requests (
  request_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  session_id TEXT,
  interaction_seq BIGINT,
  purpose TEXT NOT NULL CHECK (purpose IN ('recall', 'prefetch')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'stale', 'failed')),
  params_digest TEXT NOT NULL,
  index_mark TEXT NOT NULL,
  result TEXT,
  error TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX recall_requests_cache ON recall_requests (owner, params_digest, finished_at);
CREATE INDEX recall_requests_pending ON recall_requests (status, expires_at);
CREATE INDEX recall_requests_session ON recall_requests (owner, session_id, purpose, status);

CREATE TABLE inbox_items (
  item_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  kind TEXT NOT NULL,
  wake BIGINT NOT NULL,
  source_role TEXT NOT NULL,
  source TEXT,
  text TEXT,
  quoted BIGINT NOT NULL,
  task_id TEXT,
  control_revision BIGINT,
  request_id TEXT,
  interaction_seq BIGINT,
  digest TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'replaced', 'stale')),
  created_at BIGINT NOT NULL,
  claimed_at BIGINT,
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
  at BIGINT NOT NULL,
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
  score DOUBLE PRECISION,
  signals TEXT NOT NULL,
  sources TEXT NOT NULL,
  digest TEXT,
  context_cursor BIGINT,
  bytes BIGINT NOT NULL,
  tokens BIGINT NOT NULL,
  request_id TEXT,
  outcome TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT
);
CREATE INDEX inject_audit_session ON inject_audit (owner, session_id, created_at);
CREATE INDEX inject_audit_packet ON inject_audit (owner, packet_id);

ALTER TABLE inject_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE inject_sessions FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON inject_sessions USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE working_segments ENABLE ROW LEVEL SECURITY;
ALTER TABLE working_segments FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON working_segments USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE recall_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE recall_requests FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON recall_requests USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE inbox_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE inbox_items FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON inbox_items USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE packet_feedback ENABLE ROW LEVEL SECURITY;
ALTER TABLE packet_feedback FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON packet_feedback USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE inject_audit ENABLE ROW LEVEL SECURITY;
ALTER TABLE inject_audit FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON inject_audit USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
