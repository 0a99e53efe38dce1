-- Procedures, tracks, todos and suggestions (issue 10). Track entries are memories with `track` set; a
-- project entry names its project object; `summary` is a track entry's short form; `risk` is a procedure's,
-- as the proposer said or the risk rule found (the higher); archiving sets `archived_at` (lifecycle
-- `deprecated`: the entry moves out of its track and stays readable, never dropped).
ALTER TABLE memories ADD COLUMN project_id TEXT;
ALTER TABLE memories ADD COLUMN summary TEXT;
ALTER TABLE memories ADD COLUMN risk TEXT CHECK (risk IN ('low', 'medium', 'high'));
ALTER TABLE memories ADD COLUMN archived_at INTEGER;
CREATE INDEX memories_track ON memories (owner, track, at);

-- What later tool and task results say of a procedure: each outcome event that followed it (in a session
-- where it was followed, or whose text matches its steps), success or failure.
CREATE TABLE procedure_evidence (
  owner TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  session_id TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
  via TEXT NOT NULL CHECK (via IN ('followed', 'steps')),
  at INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (owner, memory_id, event_id),
  FOREIGN KEY (memory_id, owner) REFERENCES memories (memory_id, owner),
  FOREIGN KEY (owner, event_id) REFERENCES events (owner, event_id)
);

-- The sessions in which a host said it follows (or recalled) a procedure: their later outcomes are evidence.
CREATE TABLE procedure_follows (
  owner TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (owner, memory_id, session_id),
  FOREIGN KEY (memory_id, owner) REFERENCES memories (memory_id, owner)
);

-- Entries proposed for a track, waiting for a person: pending until approved (published into the track,
-- with the approver) or rejected; decided once.
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
  decided_at INTEGER,
  memory_id TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX suggestions_owner ON suggestions (owner, status, created_at);

-- A todo is an instance, not a name: two todos may share a title (one done, one open; one per track), so
-- todos leave the one-object-per-name index and todos.ts decides their duplicates.
DROP INDEX objects_owner_name;
CREATE UNIQUE INDEX objects_owner_name ON objects (owner, type, norm_name) WHERE type != 'todo';
CREATE INDEX objects_todo_names ON objects (owner, norm_name) WHERE type = 'todo';
