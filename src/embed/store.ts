// Owns embedding_state (the model, the stored dimension, failures) and embedding_owners (each owner's
// cursor over its documents, the lease of a batch in flight, its vector count). The vectors themselves are
// the engine's vector index (vector-index.ts).
import type { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { CountRow, int, nint, nstr, row, str } from '../storage/rows.js';
import type { PendingDoc } from './vector-index.js';
import { vectorIndexOf } from './vectors.js';

const EmbeddingState = row({
  model: str,
  requested_dimensions: nint,
  dimensions: nint,
  failures: int,
  last_error: nstr,
  last_error_at: nint,
});
export type EmbeddingState = z.output<typeof EmbeddingState>;
const PendingOwnerRow = row({ owner: str, cursor: int, lastDoc: int });
const PendingRow = row({
  docId: int,
  owner: str,
  kind: str,
  ref: str,
  at: int,
  sessionId: nstr,
  taskId: nstr,
});
const NRow = row({ n: nint });
const VectorsRow = row({ vectors: int });

/** An owner with documents after its cursor; `lastDoc` is its latest document when it was read. */
export type PendingOwner = z.output<typeof PendingOwnerRow>;

/** Every vector write (a batch, a reset) holds this first: writers of other processes wait their turn. */
const VECTORS_LOCK = 'mnemo:vectors';

export const readState = (db: Queryable): Promise<EmbeddingState | undefined> =>
  db.one(
    EmbeddingState,
    `SELECT model, requested_dimensions, dimensions, failures, last_error, last_error_at
       FROM embedding_state WHERE id = 1`,
  );

/** Whether the stored vectors are those of this model at this requested dimension. */
export const stateMatches = (state: EmbeddingState, model: string, requested: number | undefined): boolean =>
  state.model === model && state.requested_dimensions === (requested ?? null);

/** The start of a transaction that writes vectors or the state. */
export const lockVectors = (tx: Queryable): Promise<void> => tx.lockOwner(VECTORS_LOCK);

/**
 * Drops every vector and every cursor and starts over for `model`.
 * invariant: vectors of two models (or two dimensions) are never mixed (test: "rebuilds when the model
 * or the dimension changes").
 */
export async function resetVectors(
  tx: Queryable,
  model: string,
  requested: number | undefined,
  now: number,
): Promise<void> {
  await lockVectors(tx);
  await vectorIndexOf(tx).drop(tx);
  await tx.run('DELETE FROM embedding_owners');
  await tx.run(
    `INSERT INTO embedding_state (id, model, requested_dimensions, dimensions, failures, updated_at)
     VALUES (1, ?, ?, NULL, 0, ?)
     ON CONFLICT (id) DO UPDATE SET model = excluded.model, requested_dimensions = excluded.requested_dimensions,
       dimensions = NULL, failures = 0, last_error = NULL, last_error_at = NULL, updated_at = excluded.updated_at`,
    [model, requested ?? null, now],
  );
}

/** Creates the vector table for `dimensions` and records the dimension. */
export async function createVectorTable(tx: Queryable, dimensions: number): Promise<void> {
  await vectorIndexOf(tx).create(tx, dimensions);
  await tx.run('UPDATE embedding_state SET dimensions = ? WHERE id = 1', [dimensions]);
}

/**
 * Owners with documents after their cursor and no lease in force, the furthest behind first (so an owner
 * that keeps writing never starves the others).
 * invariant: cursors are per owner, whose documents commit in doc-id order, so a document committed late
 * after another owner's is never passed (test: src/embed/store.test.ts "regression for issue 9: …").
 */
export const pendingOwners = (db: Queryable, now: number, limit: number): Promise<PendingOwner[]> =>
  db.all(
    PendingOwnerRow,
    `SELECT o.owner, coalesce(e.last_doc_id, 0) AS cursor, o.last_doc AS "lastDoc"
       FROM search_owners o LEFT JOIN embedding_owners e ON e.owner = o.owner
      WHERE o.last_doc > coalesce(e.last_doc_id, 0) AND (e.lease_until IS NULL OR e.lease_until <= ?)
      ORDER BY coalesce(e.last_doc_id, 0), o.owner LIMIT ?`,
    [now, limit],
  );

/**
 * Leases these owners' next batches to `token` until `until`; answers the owners it got (those whose cursor
 * has not moved and whose lease, if any, has run out).
 * invariant: two workers never embed the same owner's documents at once, in one process or several
 * (tests: "leases an owner's batch to one worker at a time", src/embed/lease.test.ts).
 */
export async function claimOwners(
  tx: Queryable,
  owners: readonly PendingOwner[],
  lease: { token: string; until: number; now: number },
): Promise<PendingOwner[]> {
  const claimed: PendingOwner[] = [];
  // One order in every transaction: two claimers never wait on each other in a cycle.
  for (const o of [...owners].sort((a, b) => (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0))) {
    await tx.run(
      `INSERT INTO embedding_owners (owner, vectors, last_doc_id) VALUES (?, 0, 0) ON CONFLICT (owner) DO NOTHING`,
      [o.owner],
    );
    const { changes } = await tx.run(
      `UPDATE embedding_owners SET lease_token = ?, lease_until = ?
        WHERE owner = ? AND last_doc_id = ? AND (lease_until IS NULL OR lease_until <= ?)`,
      [lease.token, lease.until, o.owner, o.cursor, lease.now],
    );
    if (changes === 1) claimed.push(o);
  }
  return owners.filter((o) => claimed.includes(o));
}

/** The owner's documents after `afterDocId`, oldest first. */
export const pendingDocs = (
  db: Queryable,
  owner: string,
  afterDocId: number,
  limit: number,
): Promise<PendingDoc[]> =>
  db.all(
    PendingRow,
    // Read from the cursor on in doc-id order (no index on (owner, doc_id): ingest would pay for it); on
    // SQLite `+owner` keeps the planner off the owner indexes, which would sort all the owner's documents.
    `SELECT doc_id AS "docId", owner, kind, ref, at, session_id AS "sessionId", task_id AS "taskId"
       FROM search_docs WHERE ${db.dialect === 'sqlite' ? '+owner' : 'owner'} = ? AND doc_id > ?
      ORDER BY doc_id LIMIT ?`,
    [owner, afterDocId, limit],
  );

/**
 * Moves a leased owner's cursor from `from` to `to`, adds its new vectors to its count and ends the lease;
 * false (nothing written) when the lease was lost or the cursor moved meanwhile (fencing).
 */
export async function advanceOwner(
  tx: Queryable,
  move: { owner: string; token: string; from: number; to: number; vectors: number },
): Promise<boolean> {
  const { changes } = await tx.run(
    `UPDATE embedding_owners SET last_doc_id = ?, vectors = vectors + ?, lease_token = NULL, lease_until = NULL
      WHERE owner = ? AND lease_token = ? AND last_doc_id = ?`,
    [move.to, move.vectors, move.owner, move.token, move.from],
  );
  return changes === 1;
}

/** Ends the leases of `token` that are still held (only those of `owners`, when given). */
export async function releaseLeases(tx: Queryable, token: string, owners?: readonly string[]): Promise<void> {
  const sql = 'UPDATE embedding_owners SET lease_token = NULL, lease_until = NULL WHERE lease_token = ?';
  if (!owners) await tx.run(sql, [token]);
  else for (const owner of owners) await tx.run(`${sql} AND owner = ?`, [token, owner]);
}

export async function recordSuccess(tx: Queryable, now: number): Promise<void> {
  await tx.run(
    `UPDATE embedding_state SET failures = 0, last_error = NULL, last_error_at = NULL, updated_at = ?
      WHERE id = 1`,
    [now],
  );
}

export async function recordFailure(tx: Queryable, message: string, now: number): Promise<number> {
  await tx.run(
    `UPDATE embedding_state SET failures = failures + 1, last_error = ?, last_error_at = ?, updated_at = ?
      WHERE id = 1`,
    [message.slice(0, 500), now, now],
  );
  return (await readState(tx))?.failures ?? 1;
}

export async function ownerVectors(db: Queryable, owner: string): Promise<number> {
  const found = await db.one(VectorsRow, 'SELECT vectors FROM embedding_owners WHERE owner = ?', [owner]);
  return found?.vectors ?? 0;
}

export async function countVectors(db: Queryable): Promise<number> {
  return (await db.one(NRow, 'SELECT sum(vectors) AS n FROM embedding_owners'))?.n ?? 0;
}

/** Documents after their owner's cursor (all of them when `fromStart`: the vectors are about to restart). */
export async function countPending(db: Queryable, fromStart = false): Promise<number> {
  if (fromStart) return (await db.one(CountRow, 'SELECT count(*) AS n FROM search_docs'))?.n ?? 0;
  // From the cursor furthest behind on, in doc-id order; each document against its owner's cursor.
  const found = await db.one(
    NRow,
    `SELECT count(*) AS n FROM search_docs d LEFT JOIN embedding_owners e ON e.owner = d.owner
      WHERE d.doc_id > (SELECT min(coalesce(e2.last_doc_id, 0))
                          FROM search_owners o LEFT JOIN embedding_owners e2 ON e2.owner = o.owner
                         WHERE o.last_doc > coalesce(e2.last_doc_id, 0))
        AND d.doc_id > coalesce(e.last_doc_id, 0)`,
  );
  return found?.n ?? 0;
}

/**
 * Deletes the vectors of these documents of `owner` and takes them off its count (memory.forget), in the
 * caller's transaction; answers how many there were.
 */
export async function removeVectors(
  tx: Queryable,
  owner: string,
  docIds: readonly number[],
): Promise<number> {
  if (docIds.length === 0) return 0;
  await lockVectors(tx);
  const removed = await vectorIndexOf(tx).remove(tx, docIds);
  if (removed > 0)
    await tx.run('UPDATE embedding_owners SET vectors = vectors - ? WHERE owner = ?', [removed, owner]);
  return removed;
}

/**
 * A document indexed again (an object whose names changed, a turn whose context changed) is embedded again
 * by the worker like any new one, since its new doc id lies after its owner's cursor. SQLite hands the
 * highest doc id out again once it is deleted, so there the new document may sit at or behind the cursor:
 * the cursor steps back to just before it, which is exact because no document of the owner comes after it.
 * In the caller's transaction, after the old document and its vector were removed.
 * invariant: a re-indexed document gets a vector of its new text, never keeps one of its old (test:
 * src/knowledge/object-vectors.test.ts).
 */
export async function embedAgain(tx: Queryable, owner: string, kind: string, ref: string): Promise<void> {
  const doc = await tx.one(
    row({ doc_id: int }),
    'SELECT doc_id FROM search_docs WHERE owner = ? AND kind = ? AND ref = ?',
    [owner, kind, ref],
  );
  if (!doc) return;
  const behind = await tx.one(
    CountRow,
    `SELECT count(*) AS n FROM embedding_owners WHERE owner = ? AND last_doc_id >= ?`,
    [owner, doc.doc_id],
  );
  if (!behind?.n) return;
  await lockVectors(tx);
  // A worker's batch in flight for this owner is fenced out (its cursor moved): it covered nothing of ours.
  await tx.run(
    `UPDATE embedding_owners SET last_doc_id = ? WHERE owner = ? AND last_doc_id >= ?
        AND NOT EXISTS (SELECT 1 FROM search_docs WHERE owner = ? AND doc_id > ?)`,
    [doc.doc_id - 1, owner, doc.doc_id, owner, doc.doc_id],
  );
}

/** Which of these documents still exist (a batch embedded while some were forgotten). */
export async function presentDocIds(tx: Queryable, docIds: readonly number[]): Promise<Set<number>> {
  if (docIds.length === 0) return new Set();
  const rows = await tx.all(
    row({ doc_id: int }),
    `SELECT doc_id FROM search_docs WHERE doc_id IN (${docIds.map(() => '?').join(', ')})`,
    [...docIds],
  );
  return new Set(rows.map((r) => r.doc_id));
}
