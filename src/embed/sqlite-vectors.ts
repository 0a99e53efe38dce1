// The SQLite vector index: a sqlite-vec vec0 table, one partition per owner, with the metadata columns the
// KNN search filters on before it picks k. sqlite-vec is loaded by the driver only with a provider set.
import { MemoryError } from '../errors.js';
import type { SqlValue } from '../storage/driver.js';
import { CountRow, int, num, row, str } from '../storage/rows.js';
import { filterSql } from '../search/search.js';
import { checkDimensions, MAX_NEIGHBOURS, type VectorIndex } from './vector-index.js';

const HitRow = row({ docId: int, kind: str, ref: str, at: int, score: num, distance: num });

const bytesOf = (v: Float32Array): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export const sqliteVectors: VectorIndex = {
  // The driver refused to open without sqlite-vec (CONFIG_INVALID), so a store open here can hold vectors.
  ready: async () => {},

  async create(tx, dimensions) {
    checkDimensions(dimensions);
    // rowid = search_docs.doc_id; NULL ids are stored as ''.
    await tx.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS vec_docs USING vec0 (
         owner_key TEXT PARTITION KEY, kind TEXT, at INTEGER, session_id TEXT, task_id TEXT,
         embedding FLOAT[${dimensions}] distance_metric=cosine)`,
    );
  },

  drop: (tx) => tx.exec('DROP TABLE IF EXISTS vec_docs'),

  async write(tx, rows) {
    for (const { doc, vector } of rows) {
      // vec0 refuses a REAL rowid or INTEGER column, and better-sqlite3 binds every JS number as REAL.
      await tx.run(
        `INSERT INTO vec_docs (rowid, owner_key, kind, at, session_id, task_id, embedding)
         VALUES (CAST(? AS INTEGER), ?, ?, CAST(? AS INTEGER), ?, ?, ?)`,
        [doc.docId, doc.owner, doc.kind, doc.at, doc.sessionId ?? '', doc.taskId ?? '', bytesOf(vector)],
      );
    }
  },

  async remove(tx, docIds) {
    const table = await tx.one(CountRow, `SELECT count(*) AS n FROM sqlite_master WHERE name = 'vec_docs'`);
    if (!table?.n || docIds.length === 0) return 0;
    let removed = 0;
    try {
      for (const id of docIds) {
        removed += (await tx.run('DELETE FROM vec_docs WHERE rowid = CAST(? AS INTEGER)', [id])).changes;
      }
    } catch (error) {
      // A store with vectors opened without the embed configuration has no vec0 module to delete them.
      if (!String((error as Error).message).includes('no such module')) throw error;
      throw new MemoryError(
        'CONFIG_INVALID',
        'this store holds vectors: deleting them needs sqlite-vec, loaded when the embed configuration is set',
        { issues: [{ path: 'embed', message: 'sqlite-vec is not loaded' }] },
      );
    }
    return removed;
  },

  /**
   * invariant: every search query is scoped to one owner — the owner's partition, and the same filters
   * as every other channel on the joined document (test: "never returns another owner's vectors").
   */
  async nearest(db, vector, k, filters) {
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
  },

  async count(db) {
    const table = await db.one(CountRow, `SELECT count(*) AS n FROM sqlite_master WHERE name = 'vec_docs'`);
    if (!table?.n) return undefined;
    return (await db.one(CountRow, 'SELECT count(*) AS n FROM vec_docs'))?.n ?? 0;
  },
};
