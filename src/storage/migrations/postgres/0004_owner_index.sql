-- PostgreSQL twin of sqlite/0004_owner_index.sql: each document's length and ordinal, each owner's number
-- and statistics, and the postings: one row per (owner, term, document) with the term's count in each field
-- (body, cues, context, chars), written from mnemo's own tokens so Chinese behaves as on SQLite.
ALTER TABLE search_docs ADD COLUMN len INTEGER NOT NULL DEFAULT 0;
ALTER TABLE search_docs ADD COLUMN ord BIGINT NOT NULL DEFAULT 0;

CREATE SEQUENCE search_owner_keys;
CREATE TABLE search_owners (
  owner TEXT PRIMARY KEY,
  owner_key BIGINT NOT NULL UNIQUE DEFAULT nextval('search_owner_keys'),
  docs BIGINT NOT NULL,
  tokens BIGINT NOT NULL,
  last_ord BIGINT NOT NULL
);
ALTER TABLE search_owners ENABLE ROW LEVEL SECURITY;
ALTER TABLE search_owners FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON search_owners USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));

CREATE FUNCTION mnemo_search_docs_uncounted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_owners SET docs = docs - 1, tokens = tokens - OLD.len WHERE owner = OLD.owner;
  RETURN OLD;
END
$$;
CREATE TRIGGER search_docs_uncounted AFTER DELETE ON search_docs
  FOR EACH ROW EXECUTE FUNCTION mnemo_search_docs_uncounted();

CREATE TABLE search_terms (
  owner_key BIGINT NOT NULL,
  term TEXT NOT NULL,
  doc_id BIGINT NOT NULL,
  body SMALLINT NOT NULL,
  cues SMALLINT NOT NULL,
  context SMALLINT NOT NULL,
  chars SMALLINT NOT NULL,
  PRIMARY KEY (owner_key, term, doc_id)
);
CREATE INDEX search_terms_doc ON search_terms (doc_id);

INSERT INTO settings (key, value) SELECT 'index_rebuild', 'pending' WHERE EXISTS (SELECT 1 FROM search_docs);
