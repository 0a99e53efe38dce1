// The PostgreSQL vector index: pgvector. `vec_docs` (a `vector(N)` column) is created at run time once the
// model's dimension is known — the one table whose shape comes from the model — with row-level security
// on its owner column like every owner table. A search is exact: the owner's vectors, cosine distance.
import { MemoryError } from '../errors.js';
import { bool, CountRow, int, num, row, str } from '../storage/rows.js';
import { filterSql } from '../search/search.js';
import { checkDimensions, MAX_NEIGHBOURS, type VectorIndex } from './vector-index.js';

const HitRow = row({ docId: int, kind: str, ref: str, at: int, score: num, distance: num });
const PresentRow = row({ present: bool });
const ExtensionRow = row({ installed: bool, available: bool, creatable: bool });

/** pgvector's text form of a vector. */
const literal = (v: Float32Array): string => `[${Array.from(v).join(',')}]`;

const unusable = (why: string, fix: string) =>
  new MemoryError('CONFIG_INVALID', `the vector channel needs pgvector: ${why}; ${fix}`, {
    issues: [{ path: 'embed', message: why }],
  });

export const postgresVectors: VectorIndex = {
  async ready(db) {
    // pgvector is not a trusted extension: creating it takes a superuser, once per database.
    const ext = await db.one(
      ExtensionRow,
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
              EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
              coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false)
                OR EXISTS (SELECT 1 FROM pg_available_extension_versions WHERE name = 'vector' AND trusted)
                AS creatable`,
    );
    if (!ext || ext.installed) return;
    if (!ext.available)
      throw unusable('the PostgreSQL server has no "vector" extension', 'install pgvector on the server');
    if (!ext.creatable)
      throw unusable(
        'the "vector" extension is not created in this database and this role may not create it',
        'an administrator runs CREATE EXTENSION vector once in this database',
      );
  },

  async create(tx, dimensions) {
    checkDimensions(dimensions);
    const found = await tx.one(PresentRow, `SELECT to_regclass('vec_docs') IS NOT NULL AS present`);
    if (found?.present) return;
    await tx.exec(
      `CREATE EXTENSION IF NOT EXISTS vector;
       CREATE TABLE vec_docs (doc_id BIGINT PRIMARY KEY, owner TEXT NOT NULL, embedding vector(${dimensions}) NOT NULL);
       CREATE INDEX vec_docs_owner ON vec_docs (owner);
       ALTER TABLE vec_docs ENABLE ROW LEVEL SECURITY;
       ALTER TABLE vec_docs FORCE ROW LEVEL SECURITY;
       CREATE POLICY owner_scope ON vec_docs USING (mnemo_owner_allowed(owner)) WITH CHECK (mnemo_owner_allowed(owner));`,
    );
  },

  drop: (tx) => tx.exec('DROP TABLE IF EXISTS vec_docs'),

  async write(tx, rows) {
    if (rows.length === 0) return;
    await tx.run(
      `INSERT INTO vec_docs (doc_id, owner, embedding)
       SELECT id, owner, embedding::vector FROM unnest(?::bigint[], ?::text[], ?::text[]) AS t(id, owner, embedding)`,
      [rows.map((r) => r.doc.docId), rows.map((r) => r.doc.owner), rows.map((r) => literal(r.vector))],
    );
  },

  async remove(tx, docIds) {
    const found = await tx.one(PresentRow, `SELECT to_regclass('vec_docs') IS NOT NULL AS present`);
    if (!found?.present || docIds.length === 0) return 0;
    const { changes } = await tx.run('DELETE FROM vec_docs WHERE doc_id = ANY(?::bigint[])', [[...docIds]]);
    return changes;
  },

  /**
   * invariant: every search query is scoped to one owner — the owner's vectors, and the same filters as
   * every other channel on the joined document (test: "never returns another owner's vectors").
   */
  async nearest(db, vector, k, filters) {
    const { where, params } = filterSql(filters);
    return db.all(
      HitRow,
      `SELECT d.doc_id AS "docId", d.kind, d.ref, d.at, 1 - n.distance AS score, n.distance
         FROM (SELECT v.doc_id, v.embedding <=> ?::vector AS distance FROM vec_docs v WHERE v.owner = ?) AS n
         JOIN search_docs d ON d.doc_id = n.doc_id
        WHERE ${where} ORDER BY n.distance, d.doc_id LIMIT ?`,
      [literal(vector), filters.owner, ...params, Math.min(k, MAX_NEIGHBOURS)],
    );
  },

  async count(db) {
    const found = await db.one(PresentRow, `SELECT to_regclass('vec_docs') IS NOT NULL AS present`);
    if (!found?.present) return undefined;
    return (await db.one(CountRow, 'SELECT count(*) AS n FROM vec_docs'))?.n ?? 0;
  },
};
