// Raw look-ups in the index for tests, on either engine: which of an owner's documents hold a term (in a field).
import { ownerTerm } from '../../src/search/sqlite-index.js';
import type { Queryable } from '../../src/storage/driver.js';
import { sqlFirst, sqlRows } from './sql.js';

const FIELDS = new Set(['body', 'cues', 'context', 'chars']);

/** Refs of the owner's documents whose `field` (or any field) holds `term`, in doc id order. */
export async function matchRefs(
  db: Queryable,
  owner: string,
  term: string,
  field?: string,
): Promise<string[]> {
  const row = await sqlFirst<{ key: number }>(
    db,
    'SELECT owner_key AS key FROM search_owners WHERE owner = ?',
    [owner],
  );
  if (!row) return [];
  if (field !== undefined && !FIELDS.has(field)) throw new Error(`no field ${field}`);
  if (db.dialect === 'postgres') {
    const rows = await sqlRows<{ ref: string }>(
      db,
      `SELECT d.ref FROM search_terms t JOIN search_docs d ON d.doc_id = t.doc_id
        WHERE t.owner_key = ? AND t.term = ? ${field ? `AND t.${field} > 0` : ''} ORDER BY d.doc_id`,
      [row.key, term],
    );
    return rows.map((r) => r.ref);
  }
  const quoted = `"${ownerTerm(row.key, term).replaceAll('"', '""')}"`;
  const rows = await sqlRows<{ ref: string }>(
    db,
    `SELECT d.ref FROM search_fts JOIN search_docs d ON d.doc_id = search_fts.rowid
      WHERE search_fts MATCH ? ORDER BY d.doc_id`,
    [field ? `${field} : ${quoted}` : quoted],
  );
  return rows.map((r) => r.ref);
}

/** Every term in the index (owner-keyed on SQLite: `12_term`), for tests that look for leaks. */
export const indexTerms = async (db: Queryable): Promise<string[]> =>
  (
    await sqlRows<{ term: string }>(
      db,
      db.dialect === 'postgres'
        ? 'SELECT DISTINCT term FROM search_terms'
        : 'SELECT DISTINCT term FROM search_postings',
    )
  ).map((r) => r.term);
