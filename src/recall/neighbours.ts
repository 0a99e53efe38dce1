// Neighbours: the events next to a hit in its session (the reply after a matched question, the tool result
// after it, the question a matched reply answers). An answer often sits beside the turn that matches.
import { filterSql, type DocFilters, type DocHit } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { int, num, row, str } from '../storage/rows.js';

const NeighbourRow = row({ docId: int, kind: str, ref: str, at: int, score: num });

export interface Anchor {
  docId: number;
  sessionId: string | null;
  at: number;
}

export interface NeighbourOptions {
  /** Events taken after each anchor, and before it. */
  after: number;
  before: number;
}

export const NEIGHBOURS: NeighbourOptions = { after: 2, before: 1 };

/**
 * The session neighbours of each anchor, in anchor order (an anchor's later events first, then its earlier
 * one), each document once and never an anchor itself; only events, under the same filters as every channel.
 */
export async function findNeighbours(
  db: Queryable,
  anchors: readonly Anchor[],
  filters: DocFilters,
  options: NeighbourOptions = NEIGHBOURS,
): Promise<DocHit[]> {
  const { where, params } = filterSql(filters);
  const seen = new Set(anchors.map((a) => a.docId));
  const out: DocHit[] = [];
  const columns = 'd.doc_id AS "docId", d.kind, d.ref, d.at, 0 AS score';
  for (const anchor of anchors) {
    if (anchor.sessionId === null) continue;
    const near = (side: 'after' | 'before', limit: number) =>
      limit <= 0
        ? Promise.resolve([])
        : db.all(
            NeighbourRow,
            // `+d.at`: read the session's rows by the (owner, session) index, not every later document of the
            // owner by time.
            side === 'after'
              ? `SELECT ${columns} FROM search_docs d WHERE ${where} AND d.session_id = ? AND d.kind = 'event'
                   AND (+d.at > ? OR (+d.at = ? AND d.doc_id > ?)) ORDER BY +d.at, d.doc_id LIMIT ?`
              : `SELECT ${columns} FROM search_docs d WHERE ${where} AND d.session_id = ? AND d.kind = 'event'
                   AND (+d.at < ? OR (+d.at = ? AND d.doc_id < ?)) ORDER BY +d.at DESC, d.doc_id DESC LIMIT ?`,
            [...params, anchor.sessionId, anchor.at, anchor.at, anchor.docId, limit],
          );
    for (const hit of [...(await near('after', options.after)), ...(await near('before', options.before))]) {
      if (seen.has(hit.docId)) continue;
      seen.add(hit.docId);
      out.push(hit);
    }
  }
  return out;
}
