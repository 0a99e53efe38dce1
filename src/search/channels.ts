// The ranked channels recall fuses: body BM25 over selected terms, exact ids.
import type { Queryable } from '../storage/driver.js';
import { isStopWord } from '../text/tokenize.js';
import { filterSql, type DocFilters } from './filters.js';
import { countDocs, termStats, type TermStat } from './store.js';

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
 * FTS5 ranks a matching row in about 2.5 µs (bm25 decodes its positions and reads its length), so
 * this budget keeps BM25 near 15 ms whatever the size of the index.
 */
export const MAX_POSTINGS = 6_000;
/** Distinct query terms looked up at most (content words first): a long pasted query costs no more. */
export const MAX_LOOKUPS = 64;

/**
 * Query-term selection: keep the rarest content terms until their postings reach a budget,
 * so a query never scores every document that shares a common word.
 */
export async function selectTerms(db: Queryable, terms: readonly string[], options: SelectOptions = {}) {
  const maxPostings = options.maxPostings ?? MAX_POSTINGS;
  const maxTerms = options.maxTerms ?? 24;
  const unique = [...new Set(terms)];
  const lookups = [...unique.filter((t) => !isStopWord(t)), ...unique.filter(isStopWord)].slice(0, MAX_LOOKUPS);
  const stats = (await termStats(db, lookups)).filter((t) => t.df > 0);
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

const quote = (term: string): string => `"${term.replaceAll('"', '""')}"`;

export interface Bm25Options {
  weights?: { body: number; cues: number };
  limit: number;
}

/**
 * Top documents by BM25 over the OR of `terms`. FTS5 ranks first and only the best rows are joined
 * with their documents (a join per match costs as much as ranking it); when the filters leave too few
 * of those, every match is joined and ranked instead, so the result is the same either way.
 */
export async function searchBm25(
  db: Queryable,
  terms: readonly string[],
  filters: DocFilters,
  options: Bm25Options,
): Promise<DocHit[]> {
  if (terms.length === 0) return [];
  const { where, params } = filterSql(filters);
  const { body, cues } = options.weights ?? { body: 1, cues: 0.4 };
  const match = terms.map(quote).join(' OR ');
  const window = Math.max(200, options.limit * 4);
  const ranked = await db.query<{ docId: number; score: number }>(
    `SELECT rowid AS docId, -bm25(search_fts, ?, ?) AS score FROM search_fts
      WHERE search_fts MATCH ? ORDER BY bm25(search_fts, ?, ?) LIMIT ?`,
    [body, cues, match, body, cues, window],
  );
  if (ranked.length === 0) return [];
  const docs = await db.query<Omit<DocHit, 'score'>>(
    // CROSS JOIN keeps this order: by doc id from the ranked list, never a scan of the owner's documents.
    `SELECT d.doc_id AS docId, d.kind, d.ref, d.at FROM json_each(?) AS r CROSS JOIN search_docs d
      ON d.doc_id = r.value WHERE ${where}`,
    [JSON.stringify(ranked.map((r) => r.docId)), ...params],
  );
  const byId = new Map(docs.map((d) => [d.docId, d]));
  const hits: DocHit[] = [];
  for (const { docId, score } of ranked) {
    const doc = byId.get(docId);
    if (doc) hits.push({ ...doc, score });
    if (hits.length === options.limit) return hits;
  }
  if (ranked.length < window) return hits;
  return db.query<DocHit>(
    `SELECT d.doc_id AS docId, d.kind, d.ref, d.at, -bm25(search_fts, ?, ?) AS score
       FROM search_fts JOIN search_docs d ON d.doc_id = search_fts.rowid
      WHERE search_fts MATCH ? AND ${where}
      ORDER BY bm25(search_fts, ?, ?) LIMIT ?`,
    [body, cues, match, ...params, body, cues, options.limit],
  );
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
    const rows = await db.query<DocHit>(
      `SELECT d.doc_id AS docId, d.kind, d.ref, d.at, 1.0 AS score FROM search_docs d
        WHERE (d.ref IN (${marks}) OR d.task_id IN (${marks}) OR d.session_id IN (${marks})) AND ${where}
        ORDER BY d.at DESC LIMIT ?`,
      [...rawIds, ...rawIds, ...rawIds, ...params, limit],
    );
    for (const row of rows) hits.set(row.docId, row);
  }
  if (idTerms.length > 0) {
    const rows = await db.query<DocHit>(
      `SELECT d.doc_id AS docId, d.kind, d.ref, d.at, 0.5 AS score
         FROM search_fts JOIN search_docs d ON d.doc_id = search_fts.rowid
        WHERE search_fts MATCH ? AND ${where}
        ORDER BY d.at DESC LIMIT ?`,
      [idTerms.map(quote).join(' OR '), ...params, limit],
    );
    for (const row of rows) if (!hits.has(row.docId)) hits.set(row.docId, row);
  }
  return [...hits.values()].sort((a, b) => b.score - a.score || b.at - a.at).slice(0, limit);
}
