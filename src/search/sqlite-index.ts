// The SQLite index: FTS5 over pre-tokenized fields, each term keyed by its owner's number (`12_invoice`),
// so postings, document frequencies and lengths are counted per owner and never include another's.
import type { Queryable } from '../storage/driver.js';
import { TOKENIZER_VERSION } from '../text/tokenize.js';
import { filterSql } from './filters.js';
import type { FieldCounts, OwnerStats, SearchIndex, TermStat } from './index.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import type { IndexRow } from './store.js';

const FIELDS = ['body', 'cues', 'context', 'chars'] as const;

/** The text index as migration 0004 creates it. */
const FTS_DDL = `CREATE VIRTUAL TABLE search_fts USING fts5 (
  body, cues, context, chars, content = '', contentless_delete = 1,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*' tokenchars '-_.'"
);
CREATE VIRTUAL TABLE search_postings USING fts5vocab (search_fts, 'instance');`;

/** A term of one owner as the index stores it. */
export const ownerTerm = (key: number, term: string): string => `${key}_${term}`;
/** An owner's term as an FTS5 string: one token, matched as is. */
const quoted = (key: number, term: string): string => `"${ownerTerm(key, term).replaceAll('"', '""')}"`;
/** Every token of a joined field keyed by the owner. */
const keyed = (key: number, field: string): string =>
  field === '' ? '' : `${key}_${field.replaceAll(' ', ` ${key}_`)}`;

const DOC_COLUMNS = `d.doc_id AS "docId", d.kind, d.ref, d.at, d.session_id AS "sessionId", d.role, d.len`;
const OwnerStatsRow = row({ key: int, docs: int, tokens: int, lastOrd: int });
const DocIdRow = row({ doc_id: int });
const MatchCountRow = row({ n: int, last: nint });
const OrdRow = row({ ord: int });
const PostingsRow = row({ docs: nstr, fields: nstr });
const LengthsRow = row({ ids: nstr, lens: nstr, ats: nstr });
const IdRow = row({ docId: int });
export const DocRowSchema = row({
  docId: int,
  kind: str,
  ref: str,
  at: int,
  sessionId: nstr,
  role: nstr,
  len: int,
});

async function ownerRow(db: Queryable, owner: string): Promise<OwnerStats | undefined> {
  return db.one(
    OwnerStatsRow,
    `SELECT owner_key AS key, docs, tokens, last_ord AS "lastOrd" FROM search_owners WHERE owner = ?`,
    [owner],
  );
}

/**
 * Writes one owner's documents: new ones (no docId) get a search_docs row, rebuilt ones keep theirs.
 * invariant: every term is keyed by its owner's number, so no statistic mixes owners (test:
 * src/recall/owner-stats.test.ts).
 */
async function writeOwner(tx: Queryable, owner: string, docs: readonly Written[]): Promise<void> {
  await tx.run(
    `INSERT INTO search_owners (owner, owner_key, docs, tokens, last_ord)
     VALUES (?, (SELECT coalesce(max(owner_key), 0) + 1 FROM search_owners), 0, 0, 0)
     ON CONFLICT (owner) DO NOTHING`,
    [owner],
  );
  const stats = await ownerRow(tx, owner);
  if (!stats) throw new Error(`search owner ${owner} missing after insert`);
  let ord = stats.lastOrd;
  let tokens = 0;
  let lastDoc = 0;
  for (const { row: doc, docId } of docs) {
    ord++;
    const f = doc.fields;
    let rowid = docId;
    if (rowid === undefined) {
      const inserted = await tx.one(
        DocIdRow,
        `INSERT INTO search_docs (owner, kind, ref, at, session_id, task_id, role, tok_version, len, ord)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING doc_id`,
        [
          owner,
          doc.kind,
          doc.ref,
          doc.at,
          doc.sessionId,
          doc.taskId,
          doc.role ?? null,
          TOKENIZER_VERSION,
          f.tokens,
          ord,
        ],
      );
      if (!inserted) throw new Error('search_docs insert returned no doc_id');
      rowid = inserted.doc_id;
    } else {
      await tx.run('UPDATE search_docs SET tok_version = ?, len = ?, ord = ? WHERE doc_id = ?', [
        TOKENIZER_VERSION,
        f.tokens,
        ord,
        rowid,
      ]);
    }
    await tx.run('INSERT INTO search_fts (rowid, body, cues, context, chars) VALUES (?, ?, ?, ?, ?)', [
      rowid,
      keyed(stats.key, f.body),
      keyed(stats.key, f.cues),
      keyed(stats.key, f.context),
      keyed(stats.key, f.chars),
    ]);
    tokens += f.tokens;
    lastDoc = Math.max(lastDoc, rowid);
  }
  // last_doc: the embedding worker finds owners with documents after their cursor (embed/store.ts).
  await tx.run(
    `UPDATE search_owners SET docs = docs + ?, tokens = tokens + ?, last_ord = ?, last_doc = max(last_doc, ?)
      WHERE owner = ?`,
    [docs.length, tokens, ord, lastDoc, owner],
  );
}

interface Written {
  row: IndexRow;
  docId?: number;
}

async function writeAll(tx: Queryable, docs: readonly Written[]): Promise<void> {
  const byOwner = new Map<string, Written[]>();
  for (const doc of docs) {
    const rows = byOwner.get(doc.row.owner);
    if (rows) rows.push(doc);
    else byOwner.set(doc.row.owner, [doc]);
  }
  for (const [owner, rows] of byOwner) await writeOwner(tx, owner, rows);
}

export const sqliteIndex: SearchIndex = {
  write: (tx, docs) =>
    writeAll(
      tx,
      docs.map((row) => ({ row })),
    ),

  async remove(tx, owner, kind, ref) {
    const doc = await tx.one(
      DocIdRow,
      'SELECT doc_id FROM search_docs WHERE owner = ? AND kind = ? AND ref = ?',
      [owner, kind, ref],
    );
    if (!doc) return false;
    await tx.run('DELETE FROM search_fts WHERE rowid = ?', [doc.doc_id]);
    await tx.run('DELETE FROM search_docs WHERE doc_id = ?', [doc.doc_id]);
    return true;
  },

  async clear(tx) {
    await tx.run(`INSERT INTO search_fts (search_fts) VALUES ('delete-all')`);
    await tx.run('DELETE FROM search_owners');
    await tx.run('UPDATE search_docs SET len = 0, ord = 0');
  },

  async recreate(tx) {
    await tx.exec(`DROP TABLE IF EXISTS search_postings; DROP TABLE IF EXISTS search_fts; ${FTS_DDL}`);
    await tx.run('DELETE FROM search_owners');
    await tx.run('UPDATE search_docs SET len = 0, ord = 0');
  },

  async clearOwner(tx, owner) {
    await tx.run('DELETE FROM search_fts WHERE rowid IN (SELECT doc_id FROM search_docs WHERE owner = ?)', [
      owner,
    ]);
    await tx.run('UPDATE search_owners SET docs = 0, tokens = 0, last_ord = 0 WHERE owner = ?', [owner]);
    await tx.run('UPDATE search_docs SET len = 0, ord = 0 WHERE owner = ?', [owner]);
  },

  rewrite: (tx, docs) => writeAll(tx, docs),

  ownerStats: ownerRow,

  async termStats(db, owner, terms, cap) {
    const stats: TermStat[] = [];
    for (const term of terms) {
      const row = await db.one(
        MatchCountRow,
        `SELECT count(*) AS n, max(rowid) AS last
           FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?)`,
        [quoted(owner.key, term), cap + 1],
      );
      const n = row?.n ?? 0;
      let df = n;
      if (n > cap && row?.last) {
        // The owner's ordinals grow with time: n matches up to ordinal `ord` extrapolate to n * last / ord.
        const at = await db.one(OrdRow, 'SELECT ord FROM search_docs WHERE doc_id = ?', [row.last]);
        if (at && at.ord > 0) df = Math.max(n, Math.round((n * owner.lastOrd) / at.ord));
      }
      stats.push({ term, df });
    }
    return stats;
  },

  async postings(db, owner, terms) {
    const out = new Map<string, Map<number, FieldCounts>>();
    for (const term of terms) {
      // One row per term: occurrences come in doc order, their documents and fields as two strings
      // (one object per occurrence would cost more than the whole look-up).
      const row = await db.one(
        PostingsRow,
        `SELECT group_concat(doc) AS docs,
                group_concat(CASE col WHEN 'body' THEN 0 WHEN 'cues' THEN 1 WHEN 'context' THEN 2 ELSE 3 END, '')
                  AS fields
           FROM search_postings WHERE term = ?`,
        [ownerTerm(owner.key, term)],
      );
      const docs = new Map<number, FieldCounts>();
      const ids = row?.docs ? row.docs.split(',') : [];
      const fields = row?.fields ?? '';
      let counts: FieldCounts = [0, 0, 0, 0];
      let last = -1;
      for (let i = 0; i < ids.length; i++) {
        const doc = Number(ids[i]);
        if (doc !== last) {
          counts = [0, 0, 0, 0];
          docs.set(doc, counts);
          last = doc;
        }
        counts[fields.charCodeAt(i) - 48] = (counts[fields.charCodeAt(i) - 48] ?? 0) + 1;
      }
      out.set(term, docs);
    }
    return out;
  },

  async lengths(db, ids, filters) {
    const out = new Map<number, { len: number; at: number }>();
    if (ids.length === 0) return out;
    const { where, params } = filterSql(filters);
    const row = await db.one(
      LengthsRow,
      // CROSS JOIN keeps this order: by doc id from the list, never a scan of the owner's documents.
      `SELECT group_concat(d.doc_id) AS ids, group_concat(d.len) AS lens, group_concat(d.at) AS ats
         FROM json_each(?) AS r CROSS JOIN search_docs d ON d.doc_id = r.value WHERE ${where}`,
      [JSON.stringify(ids), ...params],
    );
    const docIds = row?.ids ? row.ids.split(',') : [];
    const lens = row?.lens?.split(',') ?? [];
    const ats = row?.ats?.split(',') ?? [];
    for (let i = 0; i < docIds.length; i++) {
      out.set(Number(docIds[i]), { len: Number(lens[i]), at: Number(ats[i]) });
    }
    return out;
  },

  async newestPostings(db, owner, term, filters, limit) {
    const { where, params } = filterSql(filters);
    const newest = await db.all(
      IdRow,
      `SELECT d.doc_id AS "docId" FROM search_fts CROSS JOIN search_docs d ON d.doc_id = search_fts.rowid
        WHERE search_fts MATCH ? AND ${where} ORDER BY search_fts.rowid DESC LIMIT ?`,
      [quoted(owner.key, term), ...params, limit],
    );
    const out = new Map<number, FieldCounts>(newest.map((r) => [r.docId, [0, 0, 0, 0]]));
    if (newest.length === 0) return out;
    const low = newest[newest.length - 1]?.docId ?? 0;
    const high = newest[0]?.docId ?? 0;
    for (const [i, field] of FIELDS.entries()) {
      const rows = await db.all(
        IdRow,
        `SELECT rowid AS "docId" FROM search_fts WHERE search_fts MATCH ? AND rowid BETWEEN ? AND ?`,
        [`${field} : ${quoted(owner.key, term)}`, low, high],
      );
      for (const { docId } of rows) {
        const counts = out.get(docId);
        if (counts) counts[i] = 1;
      }
    }
    return out;
  },

  async textMatches(db, owner, terms, filters, limit) {
    if (terms.length === 0) return [];
    const { where, params } = filterSql(filters);
    return db.all(
      DocRowSchema,
      `SELECT ${DOC_COLUMNS} FROM search_fts CROSS JOIN search_docs d ON d.doc_id = search_fts.rowid
        WHERE search_fts MATCH ? AND ${where} ORDER BY d.at DESC, d.doc_id DESC LIMIT ?`,
      // Only the document's own text: a neighbour's id in the context field is not this document's.
      [`{body cues} : (${terms.map((t) => quoted(owner.key, t)).join(' OR ')})`, ...params, limit],
    );
  },

  async docs(db, ids, filters) {
    if (ids.length === 0) return [];
    const { where, params } = filterSql(filters);
    return db.all(
      DocRowSchema,
      // CROSS JOIN keeps this order: by doc id from the list, never a scan of the owner's documents.
      `SELECT ${DOC_COLUMNS} FROM json_each(?) AS r CROSS JOIN search_docs d ON d.doc_id = r.value
        WHERE ${where}`,
      [JSON.stringify(ids), ...params],
    );
  },
};
