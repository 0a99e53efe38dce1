-- PostgreSQL twin of sqlite/0015_projections.sql: each object's file name, the digest of what was last
-- written and the last failure; the change sweep's position per owner; both behind row-level security.
CREATE TABLE object_files (
  owner TEXT NOT NULL,
  object_id TEXT NOT NULL,
  type TEXT NOT NULL,
  slug TEXT NOT NULL,
  digest TEXT,
  error TEXT,
  error_at BIGINT,
  PRIMARY KEY (owner, object_id),
  UNIQUE (owner, slug)
);

CREATE TABLE projection_owners (
  owner TEXT PRIMARY KEY,
  swept_at BIGINT NOT NULL
);

CREATE INDEX objects_owner_updated ON objects (owner, updated_at);
CREATE INDEX memories_owner_updated ON memories (owner, updated_at);
CREATE INDEX memories_owner_created ON memories (owner, created_at);
CREATE INDEX object_relations_created ON object_relations (owner, created_at);

ALTER TABLE object_files ENABLE ROW LEVEL SECURITY;
ALTER TABLE object_files FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON object_files USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE projection_owners ENABLE ROW LEVEL SECURITY;
ALTER TABLE projection_owners FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON projection_owners USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
