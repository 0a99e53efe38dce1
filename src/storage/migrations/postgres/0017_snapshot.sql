-- PostgreSQL twin of sqlite/0017_snapshot.sql. Proactive memory (issue 13): the write guard's counter per
-- session. It counts the human turns that used a tool since the session last wrote something to memory;
-- events past scanned_seq are not yet counted.
CREATE TABLE write_guards (
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  scanned_seq BIGINT NOT NULL DEFAULT 0,
  turns BIGINT NOT NULL DEFAULT 0,
  in_turn BIGINT NOT NULL DEFAULT 0,
  turn_counted BIGINT NOT NULL DEFAULT 0,
  sub_agent BIGINT NOT NULL DEFAULT 0,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (owner, session_id)
);

ALTER TABLE write_guards ENABLE ROW LEVEL SECURITY;
ALTER TABLE write_guards FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_scope ON write_guards USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));
