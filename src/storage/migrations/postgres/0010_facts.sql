-- PostgreSQL twin of sqlite/0010_facts.sql: memory lifecycle columns, fact keys, conflict resolutions;
-- memories are deleted only by memory.forget.
ALTER TABLE memories ADD COLUMN lifecycle TEXT CHECK (lifecycle IN
  ('candidate', 'active', 'superseded', 'retired', 'revoked', 'observed', 'validated', 'deprecated', 'draft'));
ALTER TABLE memories ADD COLUMN valid_from BIGINT;
ALTER TABLE memories ADD COLUMN valid_to BIGINT;
ALTER TABLE memories ADD COLUMN norm_subject TEXT;
ALTER TABLE memories ADD COLUMN norm_predicate TEXT;
ALTER TABLE memories ADD COLUMN norm_object TEXT;
ALTER TABLE memories ADD COLUMN norm_text TEXT;
ALTER TABLE memories ADD COLUMN origin TEXT CHECK (origin IN ('user', 'host', 'agent', 'tool', 'inference'));
ALTER TABLE memories ADD COLUMN conflict_id TEXT;
ALTER TABLE memories ADD COLUMN track TEXT;
ALTER TABLE memories ADD COLUMN confidence DOUBLE PRECISION;
ALTER TABLE memories ADD COLUMN approved_by TEXT;
ALTER TABLE memories ADD COLUMN approved_event TEXT;
ALTER TABLE memories ADD COLUMN revoked_reason TEXT;
ALTER TABLE memories ADD COLUMN updated_at BIGINT;

UPDATE memories SET valid_from = at, updated_at = created_at, origin = (
  SELECT CASE max(CASE e.role WHEN 'user' THEN 4 WHEN 'system' THEN 3 WHEN 'agent' THEN 2 ELSE 1 END)
           WHEN 4 THEN 'user' WHEN 3 THEN 'host' WHEN 2 THEN 'agent' WHEN 1 THEN 'tool' END
    FROM memory_sources s JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
   WHERE s.memory_id = memories.memory_id);
INSERT INTO settings (key, value) SELECT 'knowledge_norms', 'pending' WHERE EXISTS (SELECT 1 FROM memories);

CREATE INDEX memories_fact_key ON memories (owner, kind, norm_subject, norm_predicate);
CREATE INDEX memories_norm_text ON memories (owner, norm_text);
CREATE INDEX memories_conflict ON memories (owner, conflict_id) WHERE conflict_id IS NOT NULL;

CREATE TABLE fact_resolutions (
  owner TEXT NOT NULL,
  conflict_id TEXT NOT NULL,
  keep_id TEXT NOT NULL,
  resolved_at BIGINT NOT NULL,
  PRIMARY KEY (owner, conflict_id)
);
ALTER TABLE fact_resolutions ENABLE ROW LEVEL SECURITY;
ALTER TABLE fact_resolutions FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON fact_resolutions USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));

DROP TRIGGER memories_append_only_delete ON memories;
DROP TRIGGER memory_sources_append_only_delete ON memory_sources;
