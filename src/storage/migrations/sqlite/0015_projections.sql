-- Markdown projections (issue 12): each object's file name, assigned once and kept across renames, the
-- digest of what was last written and the last failure; per owner, how far the change sweep has read.
-- The database stays authoritative: every file can be written again from it.
CREATE TABLE object_files (
  owner TEXT NOT NULL,
  object_id TEXT NOT NULL,
  type TEXT NOT NULL,
  slug TEXT NOT NULL,
  digest TEXT,
  error TEXT,
  error_at INTEGER,
  PRIMARY KEY (owner, object_id),
  UNIQUE (owner, slug)
);

CREATE TABLE projection_owners (
  owner TEXT PRIMARY KEY,
  swept_at INTEGER NOT NULL
);

-- What the sweep reads: the changes of one owner since a time.
CREATE INDEX objects_owner_updated ON objects (owner, updated_at);
CREATE INDEX memories_owner_updated ON memories (owner, updated_at);
CREATE INDEX memories_owner_created ON memories (owner, created_at);
CREATE INDEX object_relations_created ON object_relations (owner, created_at);
