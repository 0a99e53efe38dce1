-- The index keeps every statistic per owner (issue 8): each term in search_fts is keyed by its owner's
-- number (`12_invoice`), so postings and document frequencies are the owner's own; each document records
-- its length and its ordinal among the owner's documents; search_owners holds each owner's number,
-- document count, token count and last ordinal. Recall computes BM25 from these (search/score.ts).
-- The old index held unkeyed terms: it is emptied here and rebuilt from events and memories at start
-- (search_docs rows and their ids stay, so vectors keep pointing at the right documents).
DROP TRIGGER search_docs_uncounted;
DROP TABLE search_owners;
DROP TABLE search_vocab;
DROP TABLE search_fts;
ALTER TABLE search_docs ADD COLUMN len INTEGER NOT NULL DEFAULT 0;
ALTER TABLE search_docs ADD COLUMN ord INTEGER NOT NULL DEFAULT 0;

CREATE TABLE search_owners (
  owner TEXT PRIMARY KEY,
  owner_key INTEGER NOT NULL UNIQUE,
  docs INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  last_ord INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER search_docs_uncounted AFTER DELETE ON search_docs BEGIN
  UPDATE search_owners SET docs = docs - 1, tokens = tokens - old.len WHERE owner = old.owner;
END;

-- Pre-tokenized, owner-keyed text: tokens joined by spaces, so FTS5 only splits on spaces. Columns, by
-- weight: body (the text), cues (observer cues), context (the previous turn of the session), chars (each
-- Han character once, so a word matches the single characters of longer words).
CREATE VIRTUAL TABLE search_fts USING fts5 (
  body,
  cues,
  context,
  chars,
  content = '',
  contentless_delete = 1,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*' tokenchars '-_.'"
);
-- Each occurrence of a term (doc, column): the field counts BM25 reads.
CREATE VIRTUAL TABLE search_postings USING fts5vocab (search_fts, 'instance');

INSERT INTO settings (key, value) SELECT 'index_rebuild', 'pending' WHERE EXISTS (SELECT 1 FROM search_docs);
