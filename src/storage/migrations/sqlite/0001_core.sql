-- Store-wide settings (e.g. the salt for content hashes).
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Events: immutable, redacted, idempotent by (owner, event_id).
CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  event_id TEXT NOT NULL,
  session_id TEXT,
  task_id TEXT,
  kind TEXT NOT NULL,
  role TEXT NOT NULL,
  at INTEGER NOT NULL,
  text TEXT NOT NULL,
  meta TEXT,
  content_hash TEXT NOT NULL,
  redactions TEXT,
  ingested_at INTEGER NOT NULL,
  UNIQUE (owner, event_id)
);
CREATE INDEX events_owner_seq ON events (owner, seq);
CREATE INDEX events_owner_at ON events (owner, at);
CREATE INDEX events_owner_task ON events (owner, task_id, seq) WHERE task_id IS NOT NULL;
CREATE INDEX events_owner_session ON events (owner, session_id, seq) WHERE session_id IS NOT NULL;

-- The one full-text index: a row per searchable document of any kind.
CREATE TABLE search_docs (
  doc_id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  at INTEGER NOT NULL,
  session_id TEXT,
  task_id TEXT,
  -- Who wrote an event document (user, agent, …); NULL for memories.
  role TEXT,
  tok_version INTEGER NOT NULL,
  UNIQUE (owner, kind, ref)
);
CREATE INDEX search_docs_owner_ref ON search_docs (owner, ref);
CREATE INDEX search_docs_owner_at ON search_docs (owner, at);
-- The id channel looks up sessions and tasks by id.
CREATE INDEX search_docs_owner_session ON search_docs (owner, session_id) WHERE session_id IS NOT NULL;
CREATE INDEX search_docs_owner_task ON search_docs (owner, task_id) WHERE task_id IS NOT NULL;

-- Each owner's document count and doc id bounds, kept by indexDocuments (one upsert per owner and call)
-- and a delete trigger: recall plans a search by the
-- owner's share of the index and lets FTS5 skip the doc ids outside the bounds.
CREATE TABLE search_owners (
  owner TEXT PRIMARY KEY,
  docs INTEGER NOT NULL,
  first_doc INTEGER NOT NULL,
  last_doc INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER search_docs_uncounted AFTER DELETE ON search_docs BEGIN
  UPDATE search_owners SET docs = docs - 1 WHERE owner = old.owner;
END;

-- Pre-tokenized text: tokens joined by spaces, so FTS5 only splits on spaces. Columns, by weight:
-- body (the text), cues (observer cues), context (the previous turn of the session), chars (each Han
-- character once, so a word matches the single characters of longer words).
CREATE VIRTUAL TABLE search_fts USING fts5 (
  body,
  cues,
  context,
  chars,
  content = '',
  contentless_delete = 1,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*' tokenchars '-_.'"
);
CREATE VIRTUAL TABLE search_vocab USING fts5vocab (search_fts, 'row');
