// Owns search_docs / search_fts: every stage indexes through these functions.
import type { Queryable } from '../storage/driver.js';
import { hanCharacters, TOKENIZER_VERSION } from '../text/tokenize.js';

/** What the index keeps of a document besides its text. */
export interface DocMeta {
  owner: string;
  kind: string;
  ref: string;
  at: number;
  sessionId: string | null;
  taskId: string | null;
  /** Who wrote an event (user, agent, …); absent for memories. */
  role?: string | null;
}

export interface IndexDoc extends DocMeta {
  body: readonly string[];
  cues?: readonly string[];
  /** Tokens of the turn before this one in its session: a question often precedes its answer. */
  context?: readonly string[];
}

/** The FTS columns of a document: tokens joined by spaces. */
export interface IndexFields {
  body: string;
  cues: string;
  context: string;
  /** Each Han character of body and cues once. */
  chars: string;
}

/** A document as written to the index; ingest builds these off the main thread (ingest/prepare.ts). */
export interface IndexRow extends DocMeta {
  fields: IndexFields;
}

export const indexFields = (
  body: readonly string[],
  cues: readonly string[] = [],
  context: readonly string[] = [],
): IndexFields => ({
  body: body.join(' '),
  cues: cues.join(' '),
  context: context.join(' '),
  chars: hanCharacters(cues.length > 0 ? [...body, ...cues] : body).join(' '),
});

export const toIndexRow = ({ body, cues, context, ...meta }: IndexDoc): IndexRow => ({
  ...meta,
  fields: indexFields(body, cues, context),
});

export async function indexDocuments(tx: Queryable, docs: readonly IndexDoc[]): Promise<void> {
  await indexRows(tx, docs.map(toIndexRow));
}

export async function indexRows(tx: Queryable, docs: readonly IndexRow[]): Promise<void> {
  const owners = new Map<string, { docs: number; first: number; last: number }>();
  for (const doc of docs) {
    const { lastInsertRowid } = await tx.run(
      `INSERT INTO search_docs (owner, kind, ref, at, session_id, task_id, role, tok_version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [doc.owner, doc.kind, doc.ref, doc.at, doc.sessionId, doc.taskId, doc.role ?? null, TOKENIZER_VERSION],
    );
    const f = doc.fields;
    await tx.run('INSERT INTO search_fts (rowid, body, cues, context, chars) VALUES (?, ?, ?, ?, ?)', [
      lastInsertRowid,
      f.body,
      f.cues,
      f.context,
      f.chars,
    ]);
    const seen = owners.get(doc.owner);
    if (seen) {
      seen.docs++;
      seen.last = Math.max(seen.last, lastInsertRowid);
    } else owners.set(doc.owner, { docs: 1, first: lastInsertRowid, last: lastInsertRowid });
  }
  // One upsert per owner and call, not per row: a per-row trigger cost about a third of ingest time.
  for (const [owner, o] of owners) {
    await tx.run(
      `INSERT INTO search_owners (owner, docs, first_doc, last_doc) VALUES (?, ?, ?, ?)
       ON CONFLICT (owner) DO UPDATE SET docs = docs + excluded.docs,
         first_doc = min(first_doc, excluded.first_doc), last_doc = max(last_doc, excluded.last_doc)`,
      [owner, o.docs, o.first, o.last],
    );
  }
}

export interface TermStat {
  term: string;
  /** Documents holding the term: exact up to the lookup cap, extrapolated above it. */
  df: number;
}

/** Postings read per term at most: a lookup costs O(min(df, cap)), never O(df). */
export const TERM_LOOKUP_CAP = 128;

/** A term as an FTS5 string: one token, matched as is. */
export const quoteTerm = (term: string): string => `"${term.replaceAll('"', '""')}"`;

/**
 * Document frequency of each term (absent terms have df 0). A term in more than `cap` documents is
 * counted up to the cap and extrapolated from the doc id where the cap was reached, so a lookup costs
 * the same at any index size. (fts5vocab reads every posting with its positions: 19 ms for "the" at
 * 1M documents, 0.07 ms here.)
 */
export async function termStats(
  db: Queryable,
  terms: readonly string[],
  cap: number = TERM_LOOKUP_CAP,
): Promise<TermStat[]> {
  if (terms.length === 0) return [];
  const docs = await countDocs(db);
  const stats: TermStat[] = [];
  for (const term of terms) {
    const row = await db.get<{ n: number; last: number | null }>(
      `SELECT count(*) AS n, max(rowid) AS last
         FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?)`,
      [quoteTerm(term), cap + 1],
    );
    const n = row?.n ?? 0;
    const last = row?.last ?? 0;
    // Doc ids grow with time: n matches up to doc id `last` extrapolate to n * docs / last.
    const df = n <= cap || last <= 0 ? n : Math.max(n, Math.round((n * docs) / last));
    stats.push({ term, df });
  }
  return stats;
}

export async function countDocs(db: Queryable): Promise<number> {
  const row = await db.get<{ n: number | null }>('SELECT max(doc_id) AS n FROM search_docs');
  return row?.n ?? 0;
}
