-- Embedding cursors per owner (issue 9): with several writers (PostgreSQL), documents of different owners
-- commit out of doc-id order, so one cursor over all owners could pass a document committed late and skip
-- it forever. One owner's documents commit in doc-id order (their writers hold the owner), so each owner
-- gets its own cursor, lease and vector count in embedding_owners; search_owners.last_doc (kept by both
-- index implementations) tells the worker which owners have documents after their cursor.
ALTER TABLE search_owners ADD COLUMN last_doc INTEGER NOT NULL DEFAULT 0;
UPDATE search_owners
   SET last_doc = coalesce((SELECT max(d.doc_id) FROM search_docs d WHERE d.owner = search_owners.owner), 0);

-- A worker holds an owner's batch with a lease (token and end) while the model answers: two workers never
-- embed the same documents at once, and a commit whose lease was lost writes nothing.
ALTER TABLE embedding_owners ADD COLUMN last_doc_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE embedding_owners ADD COLUMN lease_token TEXT;
ALTER TABLE embedding_owners ADD COLUMN lease_until INTEGER;
-- Every owner the global cursor had passed starts at it.
INSERT INTO embedding_owners (owner, vectors, last_doc_id)
SELECT d.owner, 0, s.last_doc_id
  FROM (SELECT DISTINCT owner FROM search_docs) AS d CROSS JOIN embedding_state AS s
 WHERE s.id = 1
    ON CONFLICT (owner) DO UPDATE SET last_doc_id = excluded.last_doc_id;
ALTER TABLE embedding_state DROP COLUMN last_doc_id;
