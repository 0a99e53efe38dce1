// The ranked channels recall fuses: body BM25 over selected terms, exact ids. Every statistic is the
// caller's owner's own: another owner's documents never change which terms are chosen or how they score.
import type { Queryable } from '../storage/driver.js';
import { isStopWord } from '../text/tokenize.js';
import { filterSql, type DocFilters } from './filters.js';
import { indexOf, type DocRow, type FieldCounts, type OwnerStats, type TermStat } from './index.js';
import { bm25Scores } from './score.js';
import { int, num, row, str } from '../storage/rows.js';

const IdHitRow = row({ docId: int, kind: str, ref: str, at: int, score: num });

export interface DocHit {
  docId: number;
  kind: string;
  ref: string;
  at: number;
  score: number;
}

export interface TermSelection {
  /** The caller's owner in the index; undefined when it has no documents. */
  owner: OwnerStats | undefined;
  selected: TermStat[];
  dropped: TermStat[];
  /** The owner's documents. */
  docs: number;
}

export interface SelectOptions {
  /** Postings the selected terms may add up to before common terms are dropped. */
  maxPostings?: number;
  maxTerms?: number;
  /** Translated terms and the query word each stands for: at most `perSource` of one word's are selected,
   * the owner's rarest first (a dictionary lists senses the owner's documents never use). */
  translations?: ReadonlyMap<string, string>;
  perSource?: number;
}

/**
 * Postings the selected terms may add up to: reading a posting with its field counts and scoring it costs
 * about 2 µs, so this keeps BM25 near 10 ms at any index size (docs/BENCHMARKS.md).
 */
export const MAX_POSTINGS = 4_000;
/** Distinct content words (and stop words) looked up at most: a long pasted query costs no more. */
export const MAX_LOOKUPS = 64;
/** Postings counted per term at most: a lookup costs O(min(df, cap)), never O(df). */
export const TERM_LOOKUP_CAP = 128;
const STOP_WORD_LOOKUP_CAP = 16;

/**
 * Query-term selection: keep the owner's rarest content terms until their postings reach a budget,
 * so a query never scores every document that shares a common word.
 */
export async function selectTerms(
  db: Queryable,
  owner: string,
  terms: readonly string[],
  options: SelectOptions = {},
): Promise<TermSelection> {
  const maxPostings = options.maxPostings ?? MAX_POSTINGS;
  const maxTerms = options.maxTerms ?? 24;
  const index = indexOf(db);
  const stats = await index.ownerStats(db, owner);
  if (!stats || stats.docs <= 0) return { owner: undefined, selected: [], dropped: [], docs: 0 };
  const unique = [...new Set(terms)];
  const content = unique.filter((t) => !isStopWord(t)).slice(0, MAX_LOOKUPS);
  const stop = unique.filter(isStopWord).slice(0, MAX_LOOKUPS);
  // Stop words are only chosen when the query has no content word at all (a rough count of them is
  // enough); a query whose content words all miss finds nothing rather than every "the" (issue 11).
  const found = [
    ...(await index.termStats(db, stats, content, TERM_LOOKUP_CAP)),
    ...(await index.termStats(db, stats, stop, STOP_WORD_LOOKUP_CAP)),
  ].filter((t) => t.df > 0);
  const contentFound = found.filter((t) => !isStopWord(t.term));
  const pool = (content.length > 0 ? contentFound : found).sort((a, b) => a.df - b.df);
  const selected: TermStat[] = [];
  const perSource = new Map<string, number>();
  let postings = 0;
  for (const stat of pool) {
    if (selected.length >= maxTerms) break;
    if (selected.length > 0 && postings + stat.df > maxPostings) break;
    const source = options.translations?.get(stat.term);
    if (source !== undefined) {
      const n = perSource.get(source) ?? 0;
      if (n >= (options.perSource ?? Infinity)) continue;
      perSource.set(source, n + 1);
    }
    selected.push(stat);
    postings += stat.df;
  }
  const keep = new Set(selected.map((s) => s.term));
  return { owner: stats, selected, dropped: found.filter((s) => !keep.has(s.term)), docs: stats.docs };
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
  /** Also rank apart the documents inside these spans (the time channel), from the same scores. */
  spans?: readonly { from: number; to: number }[];
  /** Postings read at most; a single term with more is scored over its newest documents only. */
  maxPostings?: number;
  /** Weight of a term's score (default 1): e.g. lower for a translated term. */
  termWeights?: ReadonlyMap<string, number>;
}

/** A BM25 hit with what recall's priors read: the document's session and author role. */
export interface Bm25Hit extends DocHit {
  sessionId: string | null;
  role: string | null;
}

export interface Bm25Result {
  /** The best `limit` documents. */
  hits: Bm25Hit[];
  /** Documents that score (hold a selected term in a weighted field) and pass the filters; estimated for a
   * term over the budget. */
  matched: number;
  /** The best `limit` documents inside the spans (empty without spans). */
  timed: Bm25Hit[];
}

/**
 * Top documents by BM25 (score.ts, over the owner's statistics) for the OR of the selected terms, among
 * those that pass the filters, overall and inside the spans. The selection's budget bounds the postings
 * read; a single term over the budget (the only one selected then) is scored by the fields it occurs in,
 * over its newest matches.
 */
export async function searchBm25(
  db: Queryable,
  selection: TermSelection,
  filters: DocFilters,
  options: Bm25Options,
): Promise<Bm25Result> {
  const owner = selection.owner;
  if (!owner || selection.selected.length === 0) return { hits: [], timed: [], matched: 0 };
  const index = indexOf(db);
  const maxPostings = options.maxPostings ?? MAX_POSTINGS;
  const w = options.weights ?? DEFAULT_COLUMN_WEIGHTS;
  const spans = options.spans ?? [];
  const [first] = selection.selected;
  const overBudget = first !== undefined && first.df > maxPostings;
  const weightOf = (term: string) => options.termWeights?.get(term) ?? 1;
  const terms =
    first && overBudget
      ? [
          {
            df: first.df,
            weight: weightOf(first.term),
            postings: await index.newestPostings(db, owner, first.term, filters, maxPostings),
          },
        ]
      : (await readPostings(db, owner, selection.selected)).map((t, i) => ({
          ...t,
          weight: weightOf(selection.selected[i]?.term ?? ''),
        }));
  const ids = new Set<number>();
  for (const term of terms) for (const id of term.postings.keys()) ids.add(id);
  const docs = await index.lengths(db, [...ids], filters);
  const lengths = new Map<number, number>();
  for (const [id, d] of docs) lengths.set(id, d.len);
  const weights: FieldCounts = [w.body, w.cues, w.context, w.chars];
  const ranked = [...bm25Scores({ owner, terms, lengths, weights })].sort(
    (a, b) => b[1] - a[1] || b[0] - a[0],
  );
  const top = ranked.slice(0, options.limit);
  const timed =
    spans.length === 0
      ? []
      : ranked
          .filter(([id]) => {
            const at = docs.get(id)?.at ?? Number.NaN;
            return spans.some((span) => at >= span.from && at <= span.to);
          })
          .slice(0, options.limit);
  const wanted = [...new Set([...top, ...timed].map(([id]) => id))];
  const rows = await index.docs(db, wanted, { owner: filters.owner });
  const byId = new Map<number, DocRow>(rows.map((r) => [r.docId, r]));
  const hit = ([docId, score]: [number, number]): Bm25Hit[] => {
    const row = byId.get(docId);
    return row
      ? [{ docId, kind: row.kind, ref: row.ref, at: row.at, sessionId: row.sessionId, role: row.role, score }]
      : [];
  };
  return {
    hits: top.flatMap(hit),
    timed: timed.flatMap(hit),
    matched: overBudget ? Math.max(ranked.length, first.df) : ranked.length,
  };
}

async function readPostings(db: Queryable, owner: OwnerStats, selected: readonly TermStat[]) {
  const postings = await indexOf(db).postings(
    db,
    owner,
    selected.map((s) => s.term),
  );
  return selected.map((s) => ({
    df: s.df,
    postings: postings.get(s.term) ?? new Map<number, FieldCounts>(),
  }));
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
    // SQLite's CROSS JOIN keeps the ids first; PostgreSQL has no CROSS JOIN … ON and plans the order itself.
    const join = db.dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
    const rows = await db.all(
      IdHitRow,
      `SELECT d.doc_id AS "docId", d.kind, d.ref, d.at, 1.0 AS score
         FROM (SELECT doc_id FROM search_docs WHERE owner = ? AND ref IN (${marks})
               UNION SELECT doc_id FROM search_docs WHERE owner = ? AND task_id IN (${marks})
               UNION SELECT doc_id FROM search_docs WHERE owner = ? AND session_id IN (${marks})) AS m
        ${join} search_docs d ON d.doc_id = m.doc_id
        WHERE ${where} ORDER BY d.at DESC, d.doc_id DESC LIMIT ?`,
      [filters.owner, ...rawIds, filters.owner, ...rawIds, filters.owner, ...rawIds, ...params, limit],
    );
    for (const row of rows) hits.set(row.docId, row);
  }
  if (idTerms.length > 0) {
    const index = indexOf(db);
    const owner = await index.ownerStats(db, filters.owner);
    const rows = owner ? await index.textMatches(db, owner, idTerms, filters, limit) : [];
    for (const row of rows) {
      if (!hits.has(row.docId))
        hits.set(row.docId, { docId: row.docId, kind: row.kind, ref: row.ref, at: row.at, score: 0.5 });
    }
  }
  // invariant: equal scores and times go to the later document on every engine, so neither the ranks nor
  // the cut at `limit` depend on how an engine orders ties (test: src/search/ids.test.ts).
  return [...hits.values()]
    .sort((a, b) => b.score - a.score || b.at - a.at || b.docId - a.docId)
    .slice(0, limit);
}
