-- PostgreSQL twin of sqlite/0007_vector_owners.sql: each owner's embedding cursor, lease and vector count,
-- and each owner's last document, so the worker finds owners with documents after their cursor. An owner's
-- documents get their ids under the owner's search_owners row lock, so they commit in doc-id order.
ALTER TABLE search_owners ADD COLUMN last_doc BIGINT NOT NULL DEFAULT 0;
UPDATE search_owners
   SET last_doc = coalesce((SELECT max(d.doc_id) FROM search_docs d WHERE d.owner = search_owners.owner), 0);

ALTER TABLE embedding_owners ADD COLUMN last_doc_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE embedding_owners ADD COLUMN lease_token TEXT;
ALTER TABLE embedding_owners ADD COLUMN lease_until BIGINT;
INSERT INTO embedding_owners (owner, vectors, last_doc_id)
SELECT d.owner, 0, s.last_doc_id
  FROM (SELECT DISTINCT owner FROM search_docs) AS d CROSS JOIN embedding_state AS s
 WHERE s.id = 1
    ON CONFLICT (owner) DO UPDATE SET last_doc_id = excluded.last_doc_id;
ALTER TABLE embedding_state DROP COLUMN last_doc_id;
