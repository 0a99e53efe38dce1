// Forgetting events rewrites the timeline nodes that summarised them: a level-1 node is summarised again
// (extractively, no model) from the events of its range that remain, and each node above it from its
// children, so no summary keeps a forgotten event's words while every remaining event stays reachable.
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import { EXTRACTIVE, summarizeExtractively } from './extractive.js';
import { ORGANIZE_DEFAULTS } from './options.js';
import { eventPiece, nodePiece } from './plan.js';
import { eventsBetween } from './store-events.js';
import { childNodes, getNodes, type NodeRow } from './store-nodes.js';
import { estimateTokens } from '../text/tokens.js';

const IdRow = row({ node_id: str });
/** Written into `summarizer`: the node's text was rebuilt when events under it were forgotten. */
export const FORGET_SUMMARIZER = `${EXTRACTIVE}+forget`;

async function rewrite(tx: Queryable, node: NodeRow, text: string, events: number): Promise<void> {
  await tx.run(
    `UPDATE memory_nodes SET text = ?, tokens = ?, events = ?, summarizer = ? WHERE owner = ? AND node_id = ?`,
    [text, estimateTokens(text), events, FORGET_SUMMARIZER, node.owner, node.node_id],
  );
}

/**
 * invariant: after a forget no timeline node holds a summary of a forgotten event; each covering node is
 * summarised again from what remains (test: src/organize/forget-nodes.test.ts).
 */
export async function rewriteNodesOver(
  tx: Queryable,
  owner: string,
  seqs: readonly number[],
  nodeTokens: number = ORGANIZE_DEFAULTS.nodeTokens,
): Promise<number> {
  if (seqs.length === 0) return 0;
  const ids = new Set<string>();
  for (const seq of new Set(seqs))
    for (const r of await tx.all(
      IdRow,
      `SELECT node_id FROM memory_nodes WHERE owner = ? AND level = 1 AND first_seq <= ? AND last_seq >= ?`,
      [owner, seq, seq],
    ))
      ids.add(r.node_id);
  let level = await getNodes(tx, owner, [...ids]);
  let rewritten = 0;
  while (level.length > 0) {
    const parents = new Set<string>();
    for (const node of level) {
      if (node.level === 1) {
        const events = await eventsBetween(tx, owner, node.first_seq, node.last_seq);
        const text =
          events.length > 0 ? summarizeExtractively(events.map(eventPiece), nodeTokens) : '(forgotten)';
        await rewrite(tx, node, text, events.length);
      } else {
        const children = await childNodes(tx, owner, node.node_id);
        const events = children.reduce((n, c) => n + c.events, 0);
        await rewrite(tx, node, summarizeExtractively(children.map(nodePiece), nodeTokens), events);
      }
      rewritten += 1;
      if (node.parent_id !== null) parents.add(node.parent_id);
    }
    // Children read again above: their rewritten texts are what the parent summarises.
    level = await getNodes(tx, owner, [...parents]);
  }
  return rewritten;
}
