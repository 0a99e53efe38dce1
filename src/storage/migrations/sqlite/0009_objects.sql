-- Objects (issue 10): stable entities with a name, aliases, a body, a status and revisions; typed relations
-- between them; the events each object and relation cites. Sources reference events of the same owner.

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
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
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
  created_at INTEGER NOT NULL,
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
  changed_at INTEGER NOT NULL,
  PRIMARY KEY (owner, object_id, revision),
  FOREIGN KEY (object_id, owner) REFERENCES objects (object_id, owner)
);
