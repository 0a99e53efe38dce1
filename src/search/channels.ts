// The ranked channels recall fuses: body BM25 over selected terms, exact ids.
import type { Queryable, SqlValue } from '../storage/driver.js';
import { isStopWord } from '../text/tokenize.js';
import { filterSql, type DocFilters } from './filters.js';
import { countDocs, quoteTerm, termStats, type TermStat } from './store.js';

export interface DocHit {
  docId: number;
  kind: string;
  ref: string;
  at: number;
  score: number;
}

export interface TermSelection {
  selected: TermStat[];
  dropped: TermStat[];
  docs: number;
}

export interface SelectOptions {
  /** Postings the selected terms may add up to before common terms are dropped. */
  maxPostings?: number;
  maxTerms?: number;
}

/**
 * Postings the selected terms may add up to. FTS5 ranks a matching row in about 3 µs (bm25 decodes
 * the positions of every column and reads the row's length), so this keeps BM25 near 10 ms at any
 * index size. 5,000 gains one LongMemEval question but took recall p95 at 100k events from 14.0 to
 * 18.1 ms against a 20 ms target (docs/BENCHMARKS.md).
 */
export const MAX_POSTINGS = 4_000;
/** Distinct content words (and stop words) looked up at most: a long pasted query costs no more. */
export const MAX_LOOKUPS = 64;
const STOP_WORD_LOOKUP_CAP = 16;

/**
 * Query-term selection: keep the rarest content terms until their postings reach a budget,
 * so a query never scores every document that shares a common word.
 */
export async function selectTerms(db: Queryable, terms: readonly string[], options: SelectOptions = {}) {
  const maxPostings = options.maxPostings ?? MAX_POSTINGS;
  const maxTerms = options.maxTerms ?? 24;
  const unique = [...new Set(terms)];
  // Stop words are only chosen when nothing else matches: a rough count of them is enough.
  const stats = [
    ...(await termStats(db, unique.filter((t) => !isStopWord(t)).slice(0, MAX_LOOKUPS))),
    ...(await termStats(db, unique.filter(isStopWord).slice(0, MAX_LOOKUPS), STOP_WORD_LOOKUP_CAP)),
  ].filter((t) => t.df > 0);
  const content = stats.filter((t) => !isStopWord(t.term));
  const pool = (content.length > 0 ? content : stats).sort((a, b) => a.df - b.df);
  const selected: TermStat[] = [];
  let postings = 0;
  for (const stat of pool) {
    if (selected.length >= maxTerms) break;
    if (selected.length > 0 && postings + stat.df > maxPostings) break;
    selected.push(stat);
    postings += stat.df;
  }
  const keep = new Set(selected.map((s) => s.term));
  const selection: TermSelection = {
    selected,
    dropped: stats.filter((s) => !keep.has(s.term)),
    docs: await countDocs(db),
  };
  return selection;
}

export interface ColumnWeights {
  body: number;
  cues: number;
  context: number;
  chars: number;
}

export const DEFAULT_COLUMN_WEIGHTS: ColumnWeights = { body: 1, cues: 0.4, context: 0.5, chars: 0.2 };

export interface Bm25Options {
  weights?: ColumnWeights;
  limit: number;
}

/** A BM25 hit with what recall's priors read: the document's session and author role. */
export interface Bm25Hit extends DocHit {
  sessionId: string | null;
  role: string | null;
}

/** Below this share of the index, an owner's search joins every match instead of ranking all owners first. */
const OWNER_SHARE_TO_RANK_FIRST = 0.5;

/**
 * Top documents by BM25 over the OR of `terms`. When the owner holds most of the index and no other
 * filter narrows it, FTS5 ranks first and only the best rows are joined with their documents (a join
 * per match costs as much as ranking it); when those leave too few, or the owner's share is small,
 * or a filter is narrow, every match is joined first and only the ones kept are ranked. The result
 * is the same either way.
 */
export async function searchBm25(
  db: Queryable,
  terms: readonly string[],
  filters: DocFilters,
  options: Bm25Options,
): Promise<Bm25Hit[]> {
  if (terms.length === 0) return [];
  const { where, params } = filterSql(filters);
  const w = options.weights ?? DEFAULT_COLUMN_WEIGHTS;
  const weights = [w.body, w.cues, w.context, w.chars];
  const match = terms.map(quoteTerm).join(' OR ');
  const owner = await ownerDocs(db, filters.owner);
  if (owner === undefined) return [];
  if (ranksFirst(owner, filters)) {
    const hits = await rankThenJoin(db, match, weights, where, params, options.limit);
    if (hits !== undefined) return hits;
  }
  return db.query<Bm25Hit>(
    // CROSS JOIN keeps FTS5 outside: never a walk of the owner's documents with a lookup each. The
    // rowid bounds let FTS5 skip the postings of documents outside the owner's first and last.
    `SELECT d.doc_id AS docId, d.kind, d.ref, d.at, d.session_id AS sessionId, d.role,
            -bm25(search_fts, ?, ?, ?, ?) AS score
       FROM search_fts CROSS JOIN search_docs d ON d.doc_id = search_fts.rowid
      WHERE search_fts MATCH ? AND search_fts.rowid BETWEEN ? AND ? AND ${where}
      ORDER BY bm25(search_fts, ?, ?, ?, ?) LIMIT ?`,
    [...weights, match, owner.first, owner.last, ...params, ...weights, options.limit],
  );
}

interface OwnerDocs {
  docs: number;
  first: number;
  last: number;
  /** Documents of all owners (the highest doc id). */
  total: number;
}

async function ownerDocs(db: Queryable, owner: string): Promise<OwnerDocs | undefined> {
  const row = await db.get<OwnerDocs>(
    `SELECT docs, first_doc AS first, last_doc AS last, (SELECT max(doc_id) FROM search_docs) AS total
       FROM search_owners WHERE owner = ?`,
    [owner],
  );
  return row === undefined || row.docs <= 0 ? undefined : row;
}

/** Whether ranking every match before the join pays: the owner holds most of the index, nothing narrows it. */
function ranksFirst(owner: OwnerDocs, f: DocFilters): boolean {
  const narrowed = f.from !== undefined || f.to !== undefined || f.sessionId !== undefined;
  if (narrowed || f.taskId !== undefined || (f.spans?.length ?? 0) > 0) return false;
  return owner.docs >= OWNER_SHARE_TO_RANK_FIRST * owner.total;
}

/** Ranks every match, joins the best window; undefined when the filters left fewer than `limit` of it. */
async function rankThenJoin(
  db: Queryable,
  match: string,
  weights: readonly number[],
  where: string,
  params: readonly SqlValue[],
  limit: number,
): Promise<Bm25Hit[] | undefined> {
  const window = Math.max(200, limit * 4);
  const ranked = await db.query<{ docId: number; score: number }>(
    `SELECT rowid AS docId, -bm25(search_fts, ?, ?, ?, ?) AS score FROM search_fts
      WHERE search_fts MATCH ? ORDER BY bm25(search_fts, ?, ?, ?, ?) LIMIT ?`,
    [...weights, match, ...weights, window],
  );
  if (ranked.length === 0) return [];
  const docs = await db.query<Omit<Bm25Hit, 'score'>>(
    // CROSS JOIN keeps this order: by doc id from the ranked list, never a scan of the owner's documents.
    `SELECT d.doc_id AS docId, d.kind, d.ref, d.at, d.session_id AS sessionId, d.role
       FROM json_each(?) AS r CROSS JOIN search_docs d ON d.doc_id = r.value WHERE ${where}`,
    [JSON.stringify(ranked.map((r) => r.docId)), ...params],
  );
  const byId = new Map(docs.map((d) => [d.docId, d]));
  const hits: Bm25Hit[] = [];
  for (const { docId, score } of ranked) {
    const doc = byId.get(docId);
    if (doc) hits.push({ ...doc, score });
    if (hits.length === limit) return hits;
  }
  return ranked.length < window ? hits : undefined;
}

/** Identifier-like query terms: contain a digit or a joiner, or look like a file name. */
export const isIdTerm = (term: string): boolean =>
  term.length >= 3 && /[\p{L}]/u.test(term) && (/\d/.test(term) || /[-_.]/.test(term));

/** Exact id channel: documents whose ref, session or task equals an id term, or whose text holds it whole. */
export async function searchIds(
  db: Queryable,
  idTerms: readonly string[],
  rawIds: readonly string[],
  filters: DocFilters,
  limit: number,
): Promise<DocHit[]> {
  if (idTerms.length === 0 && rawIds.length === 0) return [];
  const { where, params } = filterSql(filters);
  const hits = new Map<number, DocHit>();
  if (rawIds.length > 0) {
    const marks = rawIds.map(() => '?').join(', ');
    // One branch per column, each able to use its own index: a single OR walks all the owner's documents.
    const rows = await db.query<DocHit>(
      `SELECT d.doc_id AS docId, d.kind, d.ref, d.at, 1.0 AS score
         FROM (SELECT doc_id FROM search_docs WHERE owner = ? AND ref IN (${marks})
               UNION SELECT doc_id FROM search_docs WHERE owner = ? AND task_id IN (${marks})
               UNION SELECT doc_id FROM search_docs WHERE owner = ? AND session_id IN (${marks})) AS m
        CROSS JOIN search_docs d ON d.doc_id = m.doc_id
        WHERE ${where} ORDER BY d.at DESC LIMIT ?`,
      [filters.owner, ...rawIds, filters.owner, ...rawIds, filters.owner, ...rawIds, ...params, limit],
    );
    for (const row of rows) hits.set(row.docId, row);
  }
  if (idTerms.length > 0) {
    const rows = await db.query<DocHit>(
      `SELECT d.doc_id AS docId, d.kind, d.ref, d.at, 0.5 AS score
         FROM search_fts JOIN search_docs d ON d.doc_id = search_fts.rowid
        WHERE search_fts MATCH ? AND ${where}
        ORDER BY d.at DESC LIMIT ?`,
      // Only the document's own text: a neighbour's id in the context field is not this document's.
      [`{body cues} : (${idTerms.map(quoteTerm).join(' OR ')})`, ...params, limit],
    );
    for (const row of rows) if (!hits.has(row.docId)) hits.set(row.docId, row);
  }
  return [...hits.values()].sort((a, b) => b.score - a.score || b.at - a.at).slice(0, limit);
}
