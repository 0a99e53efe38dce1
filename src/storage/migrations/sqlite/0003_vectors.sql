-- The optional vector channel of recall: which model made the vectors, how far the embedding worker got,
-- and each owner's vector count. The vectors live in vec_docs, a sqlite-vec vec0 table that the worker
-- creates at run time once the model's dimension is known (rowid = search_docs.doc_id, partitioned by
-- owner); nothing here needs sqlite-vec, so a store with the channel off never loads it.

-- One row once the worker has run: the model and the dimension asked for (NULL: the model's own), the
-- dimension of the stored vectors (NULL until the first answer), the last search_docs.doc_id handled,
-- and the failures since the last success.
CREATE TABLE embedding_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  model TEXT NOT NULL,
  requested_dimensions INTEGER,
  dimensions INTEGER,
  last_doc_id INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  last_error_at INTEGER,
  updated_at INTEGER NOT NULL
);

-- Vectors stored per owner: recall embeds a query only for an owner who has some.
CREATE TABLE embedding_owners (
  owner TEXT PRIMARY KEY,
  vectors INTEGER NOT NULL
) WITHOUT ROWID;
