-- PostgreSQL twin of sqlite/0009_objects.sql: objects with aliases, relations, their sources and revisions,
-- each owner table behind row-level security.

CREATE TABLE objects (
  object_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('person', 'project', 'task', 'todo', 'schedule', 'asset', 'domain', 'knowledge', 'credential_ref')),
  name TEXT NOT NULL,
  norm_name TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '' CHECK (length(body) <= 16000),
  status TEXT NOT NULL CHECK (status IN ('candidate', 'active', 'archived')),
  revision INTEGER NOT NULL,
  -- Type-specific attributes as JSON (a todo's track, due date, …).
  attrs TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (object_id, owner)
);
-- invariant: one object per owner, type and normalised name; restatements merge into it (test:
-- src/knowledge/chain.test.ts "merges duplicates…").
CREATE UNIQUE INDEX objects_owner_name ON objects (owner, type, norm_name);

CREATE TABLE object_aliases (
  owner TEXT NOT NULL,
  object_id TEXT NOT NULL,
  alias TEXT NOT NULL,
  norm_alias TEXT NOT NULL,
  PRIMARY KEY (owner, object_id, norm_alias),
  FOREIGN KEY (object_id, owner) REFERENCES objects (object_id, owner)
);
CREATE INDEX object_aliases_norm ON object_aliases (owner, norm_alias);

CREATE TABLE object_relations (
  relation_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  type TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (owner, from_id, to_id, type),
  UNIQUE (relation_id, owner),
  FOREIGN KEY (from_id, owner) REFERENCES objects (object_id, owner),
  FOREIGN KEY (to_id, owner) REFERENCES objects (object_id, owner)
);
CREATE INDEX object_relations_to ON object_relations (owner, to_id);

-- invariant: every source of an object or relation is an event of its own owner, enforced by the foreign
-- keys (test: src/knowledge/chain.test.ts "refuses a source of another owner…").
CREATE TABLE object_sources (
  owner TEXT NOT NULL,
  object_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  quote TEXT,
  PRIMARY KEY (owner, object_id, event_id),
  FOREIGN KEY (object_id, owner) REFERENCES objects (object_id, owner),
  FOREIGN KEY (owner, event_id) REFERENCES events (owner, event_id)
);
CREATE INDEX object_sources_event ON object_sources (owner, event_id);

CREATE TABLE relation_sources (
  owner TEXT NOT NULL,
  relation_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  PRIMARY KEY (owner, relation_id, event_id),
  FOREIGN KEY (relation_id, owner) REFERENCES object_relations (relation_id, owner),
  FOREIGN KEY (owner, event_id) REFERENCES events (owner, event_id)
);
CREATE INDEX relation_sources_event ON relation_sources (owner, event_id);

-- Every version of an object: revision 1 at creation, one row per change.
CREATE TABLE object_revisions (
  owner TEXT NOT NULL,
  object_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  name TEXT NOT NULL,
  body TEXT NOT NULL,
  aliases TEXT NOT NULL,
  status TEXT NOT NULL,
  attrs TEXT,
  changed_at BIGINT NOT NULL,
  PRIMARY KEY (owner, object_id, revision),
  FOREIGN KEY (object_id, owner) REFERENCES objects (object_id, owner)
);

ALTER TABLE objects ENABLE ROW LEVEL SECURITY;
ALTER TABLE objects FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON objects USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE object_aliases ENABLE ROW LEVEL SECURITY;
ALTER TABLE object_aliases FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON object_aliases USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE object_relations ENABLE ROW LEVEL SECURITY;
ALTER TABLE object_relations FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON object_relations USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE object_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE object_sources FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON object_sources USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE relation_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE relation_sources FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON relation_sources USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
ALTER TABLE object_revisions ENABLE ROW LEVEL SECURITY;
ALTER TABLE object_revisions FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON object_revisions USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
