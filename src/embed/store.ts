// Owns embedding_state, embedding_owners and the vec0 table vec_docs (created at run time, sqlite-vec loaded).
import type { DocFilters, DocHit, DocMeta } from '../search/search.js';
import { filterSql } from '../search/search.js';
import type { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nint, nstr, num, row, str } from '../storage/rows.js';

const EmbeddingState = row({
  model: str,
  requested_dimensions: nint,
  dimensions: nint,
  last_doc_id: int,
  failures: int,
  last_error: nstr,
  last_error_at: nint,
});
export type EmbeddingState = z.output<typeof EmbeddingState>;
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
const HitRow = row({ docId: int, kind: str, ref: str, at: int, score: num, distance: num });

/** A document of the index waiting for its vector. */
export interface PendingDoc extends Omit<DocMeta, 'role'> {
  docId: number;
}

export interface VectorRow {
  doc: PendingDoc;
  vector: Float32Array;
}

/** sqlite-vec answers at most this many neighbours per query. */
export const MAX_NEIGHBOURS = 4_096;

export const readState = (db: Queryable): Promise<EmbeddingState | undefined> =>
  db.one(
    EmbeddingState,
    `SELECT model, requested_dimensions, dimensions, last_doc_id, failures, last_error, last_error_at
       FROM embedding_state WHERE id = 1`,
  );

/** Whether the stored vectors are those of this model at this requested dimension. */
export const stateMatches = (state: EmbeddingState, model: string, requested: number | undefined): boolean =>
  state.model === model && state.requested_dimensions === (requested ?? null);

/**
 * Drops every vector and starts over for `model`.
 * invariant: vectors of two models (or two dimensions) are never mixed (test: "rebuilds when the model
 * or the dimension changes").
 */
export async function resetVectors(
  tx: Queryable,
  model: string,
  requested: number | undefined,
  now: number,
): Promise<void> {
  await tx.exec('DROP TABLE IF EXISTS vec_docs');
  await tx.run('DELETE FROM embedding_owners');
  await tx.run(
    `INSERT INTO embedding_state (id, model, requested_dimensions, dimensions, last_doc_id, failures, updated_at)
     VALUES (1, ?, ?, NULL, 0, 0, ?)
     ON CONFLICT (id) DO UPDATE SET model = excluded.model, requested_dimensions = excluded.requested_dimensions,
       dimensions = NULL, last_doc_id = 0, failures = 0, last_error = NULL, last_error_at = NULL,
       updated_at = excluded.updated_at`,
    [model, requested ?? null, now],
  );
}

/** Creates vec_docs for vectors of `dimensions` (cosine distance, one partition per owner). */
export async function createVectorTable(tx: Queryable, dimensions: number): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new Error(`bad dimension ${dimensions}`);
  // Metadata columns let the KNN search filter before it picks k; NULL ids are stored as ''.
  await tx.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS vec_docs USING vec0 (
       owner_key TEXT PARTITION KEY, kind TEXT, at INTEGER, session_id TEXT, task_id TEXT,
       embedding FLOAT[${dimensions}] distance_metric=cosine)`,
  );
  await tx.run('UPDATE embedding_state SET dimensions = ? WHERE id = 1', [dimensions]);
}

/** Index documents after `afterDocId`, oldest first. */
export const pendingDocs = (db: Queryable, afterDocId: number, limit: number): Promise<PendingDoc[]> =>
  db.all(
    PendingRow,
    `SELECT doc_id AS "docId", owner, kind, ref, at, session_id AS "sessionId", task_id AS "taskId"
       FROM search_docs WHERE doc_id > ? ORDER BY doc_id LIMIT ?`,
    [afterDocId, limit],
  );

const bytesOf = (v: Float32Array): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** Stores a batch's vectors and moves the cursor past it; the caller runs it inside one transaction. */
export async function writeVectors(
  tx: Queryable,
  rows: readonly VectorRow[],
  lastDocId: number,
  now: number,
): Promise<void> {
  const perOwner = new Map<string, number>();
  for (const { doc, vector } of rows) {
    // vec0 refuses a REAL rowid or INTEGER column, and better-sqlite3 binds every JS number as REAL.
    await tx.run(
      `INSERT INTO vec_docs (rowid, owner_key, kind, at, session_id, task_id, embedding)
       VALUES (CAST(? AS INTEGER), ?, ?, CAST(? AS INTEGER), ?, ?, ?)`,
      [doc.docId, doc.owner, doc.kind, doc.at, doc.sessionId ?? '', doc.taskId ?? '', bytesOf(vector)],
    );
    perOwner.set(doc.owner, (perOwner.get(doc.owner) ?? 0) + 1);
  }
  for (const [owner, n] of perOwner) {
    await tx.run(
      `INSERT INTO embedding_owners (owner, vectors) VALUES (?, ?)
       ON CONFLICT (owner) DO UPDATE SET vectors = vectors + excluded.vectors`,
      [owner, n],
    );
  }
  await tx.run(
    `UPDATE embedding_state SET last_doc_id = ?, failures = 0, last_error = NULL, last_error_at = NULL,
       updated_at = ? WHERE id = 1`,
    [lastDocId, now],
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

export async function countPending(db: Queryable, afterDocId: number): Promise<number> {
  return (await db.one(NRow, 'SELECT count(*) AS n FROM search_docs WHERE doc_id > ?', [afterDocId]))?.n ?? 0;
}

export interface VectorHit extends DocHit {
  distance: number;
}

/**
 * The owner's k nearest documents that pass the filters, nearest first.
 * invariant: every search query is scoped to one owner — the owner's partition, and the same filters
 * as every other channel on the joined document (test: "never returns another owner's vectors").
 */
export async function searchVectors(
  db: Queryable,
  vector: Float32Array,
  k: number,
  filters: DocFilters,
): Promise<VectorHit[]> {
  const knn = ['embedding MATCH ?', 'k = ?', 'owner_key = ?'];
  const knnParams: SqlValue[] = [bytesOf(vector), Math.min(k, MAX_NEIGHBOURS), filters.owner];
  if (filters.kinds && filters.kinds.length > 0) {
    knn.push(`kind IN (${filters.kinds.map(() => '?').join(', ')})`);
    knnParams.push(...filters.kinds);
  }
  if (filters.from !== undefined) {
    knn.push('at >= ?');
    knnParams.push(filters.from);
  }
  if (filters.to !== undefined) {
    knn.push('at <= ?');
    knnParams.push(filters.to);
  }
  if (filters.sessionId !== undefined) {
    knn.push('session_id = ?');
    knnParams.push(filters.sessionId);
  }
  if (filters.taskId !== undefined) {
    knn.push('task_id = ?');
    knnParams.push(filters.taskId);
  }
  const { where, params } = filterSql(filters);
  return db.all(
    HitRow,
    `SELECT d.doc_id AS "docId", d.kind, d.ref, d.at, 1 - v.distance AS score, v.distance
       FROM (SELECT rowid, distance FROM vec_docs WHERE ${knn.join(' AND ')}) AS v
      CROSS JOIN search_docs d ON d.doc_id = v.rowid
      WHERE ${where} ORDER BY v.distance, d.doc_id`,
    [...knnParams, ...params],
  );
}
