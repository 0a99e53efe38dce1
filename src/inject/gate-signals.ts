// The gate's signals that read the owner's long-term store, without a model: open conflict sets about what a
// segment names, and a cheap BM25 hit count over the owner's earlier documents.
import { searchBm25, selectTerms } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';

const ConflictRow = row({ conflict_id: str, norm_subject: str });
/** Open sets read at most per decision. */
const MAX_CONFLICTS = 200;
/** Hits read to count similar history; the count saturates long before. */
const HISTORY_LIMIT = 20;
/** A history count is cheap: a small postings budget, not recall's. */
const HISTORY_POSTINGS = 1_000;

/**
 * Conflict sets (facts of one subject and predicate stated with two values, `knowledge/`) still open — no
 * resolution, a member neither superseded nor revoked — whose subject the segment names.
 */
export async function openConflicts(db: Queryable, owner: string, segmentNorm: string): Promise<string[]> {
  if (segmentNorm === '') return [];
  const rows = await db.all(
    ConflictRow,
    `SELECT DISTINCT m.conflict_id, m.norm_subject FROM memories m
      WHERE m.owner = ? AND m.conflict_id IS NOT NULL AND m.norm_subject IS NOT NULL
        AND coalesce(m.lifecycle, 'candidate') NOT IN ('superseded', 'revoked', 'retired')
        AND NOT EXISTS (SELECT 1 FROM fact_resolutions r WHERE r.owner = m.owner AND r.conflict_id = m.conflict_id)
      LIMIT ?`,
    [owner, MAX_CONFLICTS],
  );
  const named = rows.filter((r) => r.norm_subject !== '' && segmentNorm.includes(r.norm_subject));
  return [...new Set(named.map((r) => r.conflict_id))].sort();
}

/** Refs of the owner's documents outside this session that match the segment's terms best (BM25). */
export async function historyHits(
  db: Queryable,
  owner: string,
  sessionId: string,
  terms: readonly string[],
): Promise<string[]> {
  if (terms.length === 0) return [];
  const selection = await selectTerms(db, owner, terms, { maxPostings: HISTORY_POSTINGS });
  const { hits } = await searchBm25(
    db,
    selection,
    { owner },
    { limit: HISTORY_LIMIT, maxPostings: HISTORY_POSTINGS },
  );
  return hits.filter((h) => h.sessionId !== sessionId && h.score > 0).map((h) => h.ref);
}
