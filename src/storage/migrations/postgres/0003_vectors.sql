-- PostgreSQL twin of sqlite/0003_vectors.sql: which model made the vectors and each owner's vector count.
-- The vectors themselves live in a pgvector table the engine's vector code creates at run time, once the
-- model's dimension is known.
CREATE TABLE embedding_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  model TEXT NOT NULL,
  requested_dimensions INTEGER,
  dimensions INTEGER,
  last_doc_id BIGINT NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  last_error_at BIGINT,
  updated_at BIGINT NOT NULL
);

CREATE TABLE embedding_owners (
  owner TEXT PRIMARY KEY,
  vectors BIGINT NOT NULL
);
ALTER TABLE embedding_owners ENABLE ROW LEVEL SECURITY;
ALTER TABLE embedding_owners FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON embedding_owners USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
