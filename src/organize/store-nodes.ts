// Owns memory_nodes (the timeline's summaries, append-only but for being covered once) and
// organize_archive (events newly covered, waiting for an organize run).
import type { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { CountRow, int, nint, nstr, row, str } from '../storage/rows.js';

const NodeRow = row({
  node_id: str,
  owner: str,
  level: int,
  first_seq: int,
  last_seq: int,
  first_at: int,
  last_at: int,
  events: int,
  children: int,
  text: str,
  tokens: int,
  summarizer: str,
  job_id: str,
  parent_id: nstr,
  created_at: int,
});
export type NodeRow = z.output<typeof NodeRow>;
const COLUMNS = Object.keys(NodeRow.shape) as Array<keyof NodeRow>;
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM memory_nodes`;

export async function insertNode(tx: Queryable, node: NodeRow): Promise<void> {
  await tx.run(
    `INSERT INTO memory_nodes (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
    COLUMNS.map((c) => node[c]),
  );
}

/** Covers active nodes by `parentId`; answers how many were still active (all of them, or the caller rolls back). */
export async function coverNodes(
  tx: Queryable,
  owner: string,
  nodeIds: readonly string[],
  parentId: string,
): Promise<number> {
  const { changes } = await tx.run(
    `UPDATE memory_nodes SET parent_id = ? WHERE owner = ? AND parent_id IS NULL
        AND node_id IN (${nodeIds.map(() => '?').join(', ')})`,
    [parentId, owner, ...nodeIds],
  );
  return changes;
}

/** The owner's active timeline of nodes, oldest first. */
export const activeNodes = (db: Queryable, owner: string): Promise<NodeRow[]> =>
  db.all(NodeRow, `${SELECT} WHERE owner = ? AND parent_id IS NULL ORDER BY first_seq`, [owner]);

/** Active nodes, newest first, that cover some event of `sessionId` when given. */
export function newestActiveNodes(
  db: Queryable,
  owner: string,
  options: { sessionId?: string | undefined; limit: number; beforeSeq?: number },
): Promise<NodeRow[]> {
  const session =
    options.sessionId === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM events e WHERE e.owner = memory_nodes.owner AND e.session_id = ?
                        AND e.seq >= memory_nodes.first_seq AND e.seq <= memory_nodes.last_seq)`;
  return db.all(
    NodeRow,
    `${SELECT} WHERE owner = ? AND parent_id IS NULL ${options.beforeSeq === undefined ? '' : 'AND first_seq < ?'}
       ${session} ORDER BY first_seq DESC LIMIT ?`,
    [
      owner,
      ...(options.beforeSeq === undefined ? [] : [options.beforeSeq]),
      ...(options.sessionId === undefined ? [] : [options.sessionId]),
      options.limit,
    ],
  );
}

export const getNode = (db: Queryable, owner: string, nodeId: string): Promise<NodeRow | undefined> =>
  db.one(NodeRow, `${SELECT} WHERE owner = ? AND node_id = ?`, [owner, nodeId]);

export const getNodes = (db: Queryable, owner: string, ids: readonly string[]): Promise<NodeRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db.all(NodeRow, `${SELECT} WHERE owner = ? AND node_id IN (${ids.map(() => '?').join(', ')})`, [
        owner,
        ...ids,
      ]);

export const childNodes = (db: Queryable, owner: string, parentId: string): Promise<NodeRow[]> =>
  db.all(NodeRow, `${SELECT} WHERE owner = ? AND parent_id = ? ORDER BY first_seq`, [owner, parentId]);

const LevelRow = row({ level: int, active: int, nodes: int, tokens: int });

/** Per level: active nodes, all nodes, and the active ones' tokens. */
export const levelCounts = (db: Queryable, owner: string) =>
  db.all(
    LevelRow,
    `SELECT level, sum(CASE WHEN parent_id IS NULL THEN 1 ELSE 0 END) AS active, count(*) AS nodes,
            sum(CASE WHEN parent_id IS NULL THEN tokens ELSE 0 END) AS tokens
       FROM memory_nodes WHERE owner = ? GROUP BY level ORDER BY level`,
    [owner],
  );

export async function countActiveNodes(db: Queryable, owner: string, sessionId?: string): Promise<number> {
  const session =
    sessionId === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM events e WHERE e.owner = memory_nodes.owner AND e.session_id = ?
                        AND e.seq >= memory_nodes.first_seq AND e.seq <= memory_nodes.last_seq)`;
  const found = await db.one(
    CountRow,
    `SELECT count(*) AS n FROM memory_nodes WHERE owner = ? AND parent_id IS NULL ${session}`,
    sessionId === undefined ? [owner] : [owner, sessionId],
  );
  return found?.n ?? 0;
}

const ArchiveRow = row({
  entry_id: int,
  node_id: str,
  first_seq: int,
  last_seq: int,
  disposed_at: nint,
});
export type ArchiveRow = z.output<typeof ArchiveRow>;

export async function queueArchive(
  tx: Queryable,
  entry: { owner: string; nodeId: string; firstSeq: number; lastSeq: number; now: number },
): Promise<number> {
  const inserted = await tx.one(
    row({ entry_id: int }),
    `INSERT INTO organize_archive (owner, node_id, first_seq, last_seq, queued_at) VALUES (?, ?, ?, ?, ?)
     RETURNING entry_id`,
    [entry.owner, entry.nodeId, entry.firstSeq, entry.lastSeq, entry.now],
  );
  return inserted?.entry_id ?? 0;
}

export const pendingArchive = (db: Queryable, owner: string, limit: number): Promise<ArchiveRow[]> =>
  db.all(
    ArchiveRow,
    `SELECT entry_id, node_id, first_seq, last_seq, disposed_at FROM organize_archive
      WHERE owner = ? AND disposed_at IS NULL ORDER BY entry_id LIMIT ?`,
    [owner, limit],
  );

export async function countPendingArchive(db: Queryable, owner: string): Promise<number> {
  const found = await db.one(
    CountRow,
    'SELECT count(*) AS n FROM organize_archive WHERE owner = ? AND disposed_at IS NULL',
    [owner],
  );
  return found?.n ?? 0;
}

/** Disposes of pending entries; answers how many were still pending. */
export async function disposeArchive(
  tx: Queryable,
  owner: string,
  entries: ReadonlyArray<{ entry_id: number; action: string }>,
  jobId: string,
  now: number,
): Promise<number> {
  let changed = 0;
  for (const e of entries) {
    const { changes } = await tx.run(
      `UPDATE organize_archive SET disposition = ?, job_id = ?, disposed_at = ?
        WHERE owner = ? AND entry_id = ? AND disposed_at IS NULL`,
      [e.action, jobId, now, owner, e.entry_id],
    );
    changed += changes;
  }
  return changed;
}
