// The PostgreSQL index: postings in a table, one row per (owner, term, document) with the term's count in
// each field, from mnemo's own tokens — the same terms, statistics and scores as the SQLite index.
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import { TOKENIZER_VERSION } from '../text/tokenize.js';
import { filterSql } from './filters.js';
import type { FieldCounts, OwnerStats, SearchIndex, TermStat } from './index.js';
import type { IndexRow } from './store.js';

const OwnerStatsRow = row({ key: int, docs: int, tokens: int, lastOrd: int });
const IdRow = row({ id: int });
const TermCountRow = row({ term: str, n: int, last: nint });
const OrdRow = row({ doc_id: int, ord: int });
const PostingRow = row({ term: str, doc_id: int, body: int, cues: int, context: int, chars: int });
const LengthRow = row({ doc_id: int, len: int, at: int });
export const DocRowSchema = row({
  docId: int,
  kind: str,
  ref: str,
  at: int,
  sessionId: nstr,
  role: nstr,
  len: int,
});

const DOC_COLUMNS = `d.doc_id AS "docId", d.kind, d.ref, d.at, d.session_id AS "sessionId", d.role, d.len`;
const FIELDS = ['body', 'cues', 'context', 'chars'] as const;

interface Written {
  row: IndexRow;
  docId?: number;
}

/** Each distinct term of a document with its count per field. */
function termCounts(doc: IndexRow): Map<string, FieldCounts> {
  const out = new Map<string, FieldCounts>();
  FIELDS.forEach((field, i) => {
    const text = doc.fields[field];
    if (text === '') return;
    for (const term of text.split(' ')) {
      let counts = out.get(term);
      if (!counts) out.set(term, (counts = [0, 0, 0, 0]));
      counts[i] = (counts[i] ?? 0) + 1;
    }
  });
  return out;
}

const ownerRow = (db: Queryable, owner: string, lock = false) =>
  db.one(
    OwnerStatsRow,
    `SELECT owner_key AS key, docs, tokens, last_ord AS "lastOrd" FROM search_owners WHERE owner = ?${lock ? ' FOR UPDATE' : ''}`,
    [owner],
  );

/**
 * Writes one owner's documents: new ones get ids from the sequence after the owner's row is locked, so one
 * owner's documents commit in the order of their ids (Queryable.lockOwner).
 */
async function writeOwner(tx: Queryable, owner: string, docs: readonly Written[]): Promise<void> {
  await tx.run(
    'INSERT INTO search_owners (owner, docs, tokens, last_ord) VALUES (?, 0, 0, 0) ON CONFLICT (owner) DO NOTHING',
    [owner],
  );
  const stats = await ownerRow(tx, owner, true);
  if (!stats) throw new Error(`search owner ${owner} missing after insert`);
  const fresh = docs.filter((d) => d.docId === undefined).length;
  const ids =
    fresh === 0
      ? []
      : (
          await tx.all(
            IdRow,
            `SELECT nextval(pg_get_serial_sequence('search_docs', 'doc_id')) AS id FROM generate_series(1, ?)`,
            [fresh],
          )
        )
          .map((r) => r.id)
          .sort((a, b) => a - b);
  let next = 0;
  let ord = stats.lastOrd;
  let tokens = 0;
  let lastDoc = 0;
  const cols = { ids: [] as number[], ords: [] as number[], lens: [] as number[] };
  const meta = { kinds: [] as string[], refs: [] as string[], ats: [] as number[] };
  const more = {
    sessions: [] as Array<string | null>,
    tasks: [] as Array<string | null>,
    roles: [] as Array<string | null>,
  };
  const postings = {
    terms: [] as string[],
    docs: [] as number[],
    body: [] as number[],
    cues: [] as number[],
    context: [] as number[],
    chars: [] as number[],
  };
  const rewritten: Array<{ docId: number; len: number; ord: number }> = [];
  for (const { row: doc, docId } of docs) {
    ord++;
    tokens += doc.fields.tokens;
    const id = docId ?? (ids[next++] as number);
    lastDoc = Math.max(lastDoc, id);
    if (docId === undefined) {
      cols.ids.push(id);
      cols.ords.push(ord);
      cols.lens.push(doc.fields.tokens);
      meta.kinds.push(doc.kind);
      meta.refs.push(doc.ref);
      meta.ats.push(doc.at);
      more.sessions.push(doc.sessionId);
      more.tasks.push(doc.taskId);
      more.roles.push(doc.role ?? null);
    } else rewritten.push({ docId: id, len: doc.fields.tokens, ord });
    for (const [term, c] of termCounts(doc)) {
      postings.terms.push(term);
      postings.docs.push(id);
      postings.body.push(c[0]);
      postings.cues.push(c[1]);
      postings.context.push(c[2]);
      postings.chars.push(c[3]);
    }
  }
  if (cols.ids.length > 0) {
    await tx.run(
      `INSERT INTO search_docs (doc_id, owner, kind, ref, at, session_id, task_id, role, tok_version, len, ord)
       SELECT id, ?, kind, ref, at, session_id, task_id, role, ?, len, ord
         FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::int[], ?::bigint[])
           AS t(id, kind, ref, at, session_id, task_id, role, len, ord)`,
      [
        owner,
        TOKENIZER_VERSION,
        cols.ids,
        meta.kinds,
        meta.refs,
        meta.ats,
        more.sessions,
        more.tasks,
        more.roles,
        cols.lens,
        cols.ords,
      ],
    );
  }
  for (const r of rewritten) {
    await tx.run('UPDATE search_docs SET tok_version = ?, len = ?, ord = ? WHERE doc_id = ?', [
      TOKENIZER_VERSION,
      r.len,
      r.ord,
      r.docId,
    ]);
  }
  if (postings.terms.length > 0) {
    await tx.run(
      `INSERT INTO search_terms (owner_key, term, doc_id, body, cues, context, chars)
       SELECT ?, * FROM unnest(?::text[], ?::bigint[], ?::smallint[], ?::smallint[], ?::smallint[], ?::smallint[])`,
      [
        stats.key,
        postings.terms,
        postings.docs,
        postings.body,
        postings.cues,
        postings.context,
        postings.chars,
      ],
    );
  }
  // last_doc: the embedding worker finds owners with documents after their cursor (embed/store.ts).
  await tx.run(
    `UPDATE search_owners SET docs = docs + ?, tokens = tokens + ?, last_ord = ?, last_doc = GREATEST(last_doc, ?)
      WHERE owner = ?`,
    [docs.length, tokens, ord, lastDoc, owner],
  );
}

async function writeAll(tx: Queryable, docs: readonly Written[]): Promise<void> {
  const byOwner = new Map<string, Written[]>();
  for (const doc of docs) {
    const list = byOwner.get(doc.row.owner);
    if (list) list.push(doc);
    else byOwner.set(doc.row.owner, [doc]);
  }
  // Owners in one order in every transaction: two writers never wait on each other in a cycle.
  for (const owner of [...byOwner.keys()].sort()) await writeOwner(tx, owner, byOwner.get(owner) ?? []);
}

export const postgresIndex: SearchIndex = {
  write: (tx, docs) =>
    writeAll(
      tx,
      docs.map((row) => ({ row })),
    ),

  async remove(tx, owner, kind, ref) {
    const doc = await tx.one(
      IdRow,
      'SELECT doc_id AS id FROM search_docs WHERE owner = ? AND kind = ? AND ref = ?',
      [owner, kind, ref],
    );
    if (!doc) return false;
    await tx.run('DELETE FROM search_terms WHERE doc_id = ?', [doc.id]);
    await tx.run('DELETE FROM search_docs WHERE doc_id = ?', [doc.id]);
    return true;
  },

  async clear(tx) {
    await tx.run('DELETE FROM search_terms');
    await tx.run('DELETE FROM search_owners');
    await tx.run('UPDATE search_docs SET len = 0, ord = 0');
  },

  recreate(tx) {
    return postgresIndex.clear(tx);
  },

  async clearOwner(tx, owner) {
    await tx.run(
      'DELETE FROM search_terms WHERE doc_id IN (SELECT doc_id FROM search_docs WHERE owner = ?)',
      [owner],
    );
    await tx.run('UPDATE search_owners SET docs = 0, tokens = 0, last_ord = 0 WHERE owner = ?', [owner]);
    await tx.run('UPDATE search_docs SET len = 0, ord = 0 WHERE owner = ?', [owner]);
  },

  rewrite: (tx, docs) => writeAll(tx, docs),

  ownerStats: (db, owner) => ownerRow(db, owner),

  async termStats(db, owner, terms, cap) {
    if (terms.length === 0) return [];
    const rows = await db.all(
      TermCountRow,
      `SELECT t.term, c.n, c.last FROM unnest(?::text[]) AS t(term)
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, max(doc_id) AS last FROM (
            SELECT doc_id FROM search_terms WHERE owner_key = ? AND term = t.term ORDER BY doc_id LIMIT ?) s) c`,
      [[...terms], owner.key, cap + 1],
    );
    const over = rows.filter((r) => r.n > cap && r.last !== null).map((r) => r.last as number);
    const ords = new Map(
      over.length === 0
        ? []
        : (
            await db.all(OrdRow, 'SELECT doc_id, ord FROM search_docs WHERE doc_id = ANY(?::bigint[])', [
              over,
            ])
          ).map((r) => [r.doc_id, r.ord]),
    );
    const byTerm = new Map(rows.map((r) => [r.term, r]));
    return terms.map((term): TermStat => {
      const r = byTerm.get(term);
      const n = r?.n ?? 0;
      const ord = r?.last ? ords.get(r.last) : undefined;
      // The owner's ordinals grow with time: n matches up to ordinal `ord` extrapolate to n * last / ord.
      const df = n > cap && ord ? Math.max(n, Math.round((n * owner.lastOrd) / ord)) : n;
      return { term, df };
    });
  },

  async postings(db, owner, terms) {
    const out = new Map<string, Map<number, FieldCounts>>(terms.map((t) => [t, new Map()]));
    if (terms.length === 0) return out;
    const rows = await db.all(
      PostingRow,
      `SELECT term, doc_id, body, cues, context, chars FROM search_terms
        WHERE owner_key = ? AND term = ANY(?::text[]) ORDER BY term, doc_id`,
      [owner.key, [...terms]],
    );
    for (const r of rows) out.get(r.term)?.set(r.doc_id, [r.body, r.cues, r.context, r.chars]);
    return out;
  },

  async lengths(db, ids, filters) {
    const out = new Map<number, { len: number; at: number }>();
    if (ids.length === 0) return out;
    const { where, params } = filterSql(filters);
    const rows = await db.all(
      LengthRow,
      `SELECT d.doc_id, d.len, d.at FROM search_docs d WHERE d.doc_id = ANY(?::bigint[]) AND ${where}`,
      [[...ids], ...params],
    );
    for (const r of rows) out.set(r.doc_id, { len: r.len, at: r.at });
    return out;
  },

  async newestPostings(db, owner, term, filters, limit) {
    const { where, params } = filterSql(filters);
    const rows = await db.all(
      PostingRow,
      `SELECT t.term, t.doc_id, t.body, t.cues, t.context, t.chars
         FROM search_terms t JOIN search_docs d ON d.doc_id = t.doc_id
        WHERE t.owner_key = ? AND t.term = ? AND ${where} ORDER BY t.doc_id DESC LIMIT ?`,
      [owner.key, term, ...params, limit],
    );
    return new Map(rows.map((r) => [r.doc_id, [r.body, r.cues, r.context, r.chars] as FieldCounts]));
  },

  async textMatches(db, owner, terms, filters, limit) {
    if (terms.length === 0) return [];
    const { where, params } = filterSql(filters);
    return db.all(
      DocRowSchema,
      // Only the document's own text: a neighbour's id in the context field is not this document's.
      `SELECT ${DOC_COLUMNS} FROM search_docs d
        WHERE d.doc_id IN (SELECT doc_id FROM search_terms
                            WHERE owner_key = ? AND term = ANY(?::text[]) AND (body > 0 OR cues > 0))
          AND ${where} ORDER BY d.at DESC, d.doc_id DESC LIMIT ?`,
      [owner.key, [...terms], ...params, limit],
    );
  },

  async docs(db, ids, filters) {
    if (ids.length === 0) return [];
    const { where, params } = filterSql(filters);
    return db.all(
      DocRowSchema,
      `SELECT ${DOC_COLUMNS} FROM search_docs d WHERE d.doc_id = ANY(?::bigint[]) AND ${where}`,
      [[...ids], ...params],
    );
  },
};

export type { OwnerStats };
