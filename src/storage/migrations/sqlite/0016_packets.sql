-- Proactive memory, part 3 (issue 13): memory packets. A packet row holds ids, digests and numbers: the
-- items' ids with their exact and near digests, source sequences and the dropped candidates with their
-- reasons, never memory text. A packet is built, then delivered once (the session's delivered cursor moves
-- by one) or dropped when it expired first.
CREATE TABLE packets (
  packet_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('built', 'delivered', 'dropped')),
  shadow INTEGER NOT NULL,
  context_cursor INTEGER NOT NULL,
  retrieval_version TEXT NOT NULL,
  trigger_kind TEXT NOT NULL,
  strength TEXT NOT NULL CHECK (strength IN ('hint', 'context', 'checklist')),
  exact_digest TEXT NOT NULL,
  semantic_digest TEXT NOT NULL,
  items TEXT NOT NULL,
  source_seqs TEXT NOT NULL,
  dropped TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  delivered_at INTEGER,
  delivered_seq INTEGER
);
CREATE INDEX packets_session ON packets (owner, session_id, status, created_at);

ALTER TABLE inject_sessions ADD COLUMN delivered_cursor INTEGER NOT NULL DEFAULT 0;
