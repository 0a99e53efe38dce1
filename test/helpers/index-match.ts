// Raw look-ups in the SQLite index for tests: which of an owner's documents hold a term (in a field).
import { ownerTerm } from '../../src/search/sqlite-index.js';
import type { Queryable } from '../../src/storage/driver.js';
import { sqlFirst, sqlRows } from './sql.js';

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
  const quoted = `"${ownerTerm(row.key, term).replaceAll('"', '""')}"`;
  const rows = await sqlRows<{ ref: string }>(
    db,
    `SELECT d.ref FROM search_fts JOIN search_docs d ON d.doc_id = search_fts.rowid
      WHERE search_fts MATCH ? ORDER BY d.doc_id`,
    [field ? `${field} : ${quoted}` : quoted],
  );
  return rows.map((r) => r.ref);
}
