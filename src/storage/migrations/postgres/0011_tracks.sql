-- PostgreSQL twin of sqlite/0011_tracks.sql: track, project, summary, risk and archive columns of memories;
-- procedure evidence and follows; suggestions; todos out of the one-object-per-name index.
ALTER TABLE memories ADD COLUMN project_id TEXT;
ALTER TABLE memories ADD COLUMN summary TEXT;
ALTER TABLE memories ADD COLUMN risk TEXT CHECK (risk IN ('low', 'medium', 'high'));
ALTER TABLE memories ADD COLUMN archived_at BIGINT;
CREATE INDEX memories_track ON memories (owner, track, at);

CREATE TABLE procedure_evidence (
  owner TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  session_id TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
  via TEXT NOT NULL CHECK (via IN ('followed', 'steps')),
  at BIGINT NOT NULL,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (owner, memory_id, event_id),
  FOREIGN KEY (memory_id, owner) REFERENCES memories (memory_id, owner),
  FOREIGN KEY (owner, event_id) REFERENCES events (owner, event_id)
);
ALTER TABLE procedure_evidence ENABLE ROW LEVEL SECURITY;
ALTER TABLE procedure_evidence FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON procedure_evidence USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));

CREATE TABLE procedure_follows (
  owner TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (owner, memory_id, session_id),
  FOREIGN KEY (memory_id, owner) REFERENCES memories (memory_id, owner)
);
ALTER TABLE procedure_follows ENABLE ROW LEVEL SECURITY;
ALTER TABLE procedure_follows FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON procedure_follows USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));

CREATE TABLE suggestions (
  suggestion_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  track TEXT NOT NULL CHECK (track IN ('memory', 'user', 'project', 'key', 'daily')),
  text TEXT NOT NULL,
  norm_text TEXT NOT NULL,
  reason TEXT,
  project TEXT,
  source_refs TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by TEXT,
  decided_at BIGINT,
  memory_id TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX suggestions_owner ON suggestions (owner, status, created_at);
ALTER TABLE suggestions ENABLE ROW LEVEL SECURITY;
ALTER TABLE suggestions FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON suggestions USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));

DROP INDEX objects_owner_name;
CREATE UNIQUE INDEX objects_owner_name ON objects (owner, type, norm_name) WHERE type != 'todo';
CREATE INDEX objects_todo_names ON objects (owner, norm_name) WHERE type = 'todo';
