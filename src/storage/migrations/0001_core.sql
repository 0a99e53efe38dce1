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
  tok_version INTEGER NOT NULL,
  UNIQUE (owner, kind, ref)
);
CREATE INDEX search_docs_owner_ref ON search_docs (owner, ref);
CREATE INDEX search_docs_owner_at ON search_docs (owner, at);

-- Pre-tokenized text: tokens joined by spaces, so FTS5 only splits on spaces.
CREATE VIRTUAL TABLE search_fts USING fts5 (
  body,
  cues,
  content = '',
  contentless_delete = 1,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*' tokenchars '-_.'"
);
CREATE VIRTUAL TABLE search_vocab USING fts5vocab (search_fts, 'row');
