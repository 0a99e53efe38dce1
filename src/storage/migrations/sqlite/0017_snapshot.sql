-- Proactive memory (issue 13): the write guard's counter per session. It counts the human turns that used a
-- tool since the session last wrote something to memory; events past scanned_seq are not yet counted.
CREATE TABLE write_guards (
  owner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  scanned_seq INTEGER NOT NULL DEFAULT 0,
  turns INTEGER NOT NULL DEFAULT 0,
  in_turn INTEGER NOT NULL DEFAULT 0,
  turn_counted INTEGER NOT NULL DEFAULT 0,
  sub_agent INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (owner, session_id)
);
