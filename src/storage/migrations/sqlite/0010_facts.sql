-- Facts over time (issue 10). A memory keeps its coarse `status` (what recall has always read) and gains a
-- fine-grained `lifecycle` (NULL: the same as status): superseded and retired facts are `deprecated`,
-- observed/validated procedures and draft skills `candidate`. Validity runs from `valid_from` (the newest
-- source event) to `valid_to` (NULL while current). Normal forms decide duplicates and a fact's key
-- (owner, subject, predicate); `origin` says who stated it (user > host > agent, tool, inference).
ALTER TABLE memories ADD COLUMN lifecycle TEXT CHECK (lifecycle IN
  ('candidate', 'active', 'superseded', 'retired', 'revoked', 'observed', 'validated', 'deprecated', 'draft'));
ALTER TABLE memories ADD COLUMN valid_from INTEGER;
ALTER TABLE memories ADD COLUMN valid_to INTEGER;
ALTER TABLE memories ADD COLUMN norm_subject TEXT;
ALTER TABLE memories ADD COLUMN norm_predicate TEXT;
ALTER TABLE memories ADD COLUMN norm_object TEXT;
ALTER TABLE memories ADD COLUMN norm_text TEXT;
ALTER TABLE memories ADD COLUMN origin TEXT CHECK (origin IN ('user', 'host', 'agent', 'tool', 'inference'));
ALTER TABLE memories ADD COLUMN conflict_id TEXT;
ALTER TABLE memories ADD COLUMN track TEXT;
ALTER TABLE memories ADD COLUMN confidence REAL;
ALTER TABLE memories ADD COLUMN approved_by TEXT;
ALTER TABLE memories ADD COLUMN approved_event TEXT;
ALTER TABLE memories ADD COLUMN revoked_reason TEXT;
ALTER TABLE memories ADD COLUMN updated_at INTEGER;

-- Existing memories: valid from their time; origin from their sources' roles (a system event is a host's
-- write). Their normal forms need NFKC and Unicode punctuation classes, so the service computes them at
-- the next start (knowledge/renorm.ts).
UPDATE memories SET valid_from = at, updated_at = created_at, origin = (
  SELECT CASE max(CASE e.role WHEN 'user' THEN 4 WHEN 'system' THEN 3 WHEN 'agent' THEN 2 ELSE 1 END)
           WHEN 4 THEN 'user' WHEN 3 THEN 'host' WHEN 2 THEN 'agent' WHEN 1 THEN 'tool' END
    FROM memory_sources s JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
   WHERE s.memory_id = memories.memory_id);
INSERT INTO settings (key, value) SELECT 'knowledge_norms', 'pending' WHERE EXISTS (SELECT 1 FROM memories);

CREATE INDEX memories_fact_key ON memories (owner, kind, norm_subject, norm_predicate);
CREATE INDEX memories_norm_text ON memories (owner, norm_text);
CREATE INDEX memories_conflict ON memories (owner, conflict_id) WHERE conflict_id IS NOT NULL;

-- A conflict set resolved by a person: `keep` is current, the set's other facts superseded.
CREATE TABLE fact_resolutions (
  owner TEXT NOT NULL,
  conflict_id TEXT NOT NULL,
  keep_id TEXT NOT NULL,
  resolved_at INTEGER NOT NULL,
  PRIMARY KEY (owner, conflict_id)
);

-- invariant: memories change only in their lifecycle columns (the update triggers stay) and are deleted
-- only by memory.forget, the one module with a DELETE on them (test: src/knowledge/migration.test.ts).
DROP TRIGGER memories_append_only_delete;
DROP TRIGGER memory_sources_append_only_delete;
