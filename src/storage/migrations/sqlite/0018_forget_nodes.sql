-- memory.forget with events rewrites the summaries of the timeline nodes over them (issue 10): a node's
-- text, tokens and event count may change, by that path only (organize/forget-nodes.ts); its range, level,
-- place in the tree and origin stay as written.
DROP TRIGGER memory_nodes_append_only_update;
CREATE TRIGGER memory_nodes_append_only_update
  BEFORE UPDATE OF node_id, owner, level, first_seq, last_seq, first_at, last_at, children, job_id, created_at
  ON memory_nodes
BEGIN
  SELECT RAISE(ABORT, 'memory nodes are append-only');
END;
