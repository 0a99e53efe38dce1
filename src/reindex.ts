// Rebuilding the search index from the database: after an upgrade that changes how documents are indexed
// (a migration leaves `index_rebuild` pending), or when the index is damaged. Events, memories and objects
// are the truth; every search_docs row keeps its id, so vectors stay attached to their documents.
import { contextOf, eventIndexRow } from './ingest/prepare.js';
import { getEventsByIds } from './ingest/store.js';
import { OBJECT_DOC_KIND, storedObjectDoc } from './knowledge/knowledge.js';
import { getMemoriesByIds } from './observe/observe.js';
import { memoryIndexDoc } from './observe/publish.js';
import { indexOf, type IndexRow } from './search/search.js';
import { toIndexRow } from './search/store.js';
import type { Driver, Queryable } from './storage/driver.js';
import { tokenize } from './text/tokenize.js';
import type { z } from 'zod';
import { CountRow, int, row, str } from './storage/rows.js';

const CHUNK = 500;
export const REBUILD_SETTING = 'index_rebuild';

export interface ReindexProgress {
  done: number;
  total: number;
}

const DocRef = row({ doc_id: int, owner: str, kind: str, ref: str });
type DocRef = z.output<typeof DocRef>;
const ValueRow = row({ value: str });
const TextRow = row({ text: str });

export async function rebuildPending(db: Queryable): Promise<boolean> {
  const found = await db.one(ValueRow, 'SELECT value FROM settings WHERE key = ?', [REBUILD_SETTING]);
  return found?.value === 'pending';
}

async function rowsOf(
  tx: Queryable,
  docs: readonly DocRef[],
): Promise<Array<{ docId: number; row: IndexRow }>> {
  const out: Array<{ docId: number; row: IndexRow }> = [];
  for (const d of docs) {
    if (d.kind === 'event') {
      const [event] = await getEventsByIds(tx, d.owner, [d.ref]);
      if (!event) continue;
      const previous = event.session_id
        ? await tx.one(
            TextRow,
            'SELECT text FROM events WHERE owner = ? AND session_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1',
            [d.owner, event.session_id, event.seq],
          )
        : undefined;
      const context = previous ? contextOf(tokenize(previous.text)) : '';
      out.push({ docId: d.doc_id, row: eventIndexRow(event, tokenize(event.text), context) });
    } else if (d.kind === OBJECT_DOC_KIND) {
      const doc = await storedObjectDoc(tx, d.owner, d.ref);
      if (doc) out.push({ docId: d.doc_id, row: toIndexRow(doc) });
    } else {
      const [memory] = await getMemoriesByIds(tx, d.owner, [d.ref]);
      if (memory) out.push({ docId: d.doc_id, row: toIndexRow(memoryIndexDoc(memory)) });
    }
  }
  return out;
}

export interface RebuildOptions {
  /** Only this owner's documents (the others' stay as they are). */
  owner?: string | undefined;
  /** Make the text index anew first: a dropped or damaged SQLite FTS table is created again. */
  recreate?: boolean;
}

/**
 * Indexes every document (or one owner's) again from its event, memory or object, a chunk per transaction,
 * in document order, so ordinals, statistics and ranks come out as they were.
 * invariant: recall ranks as before the index was deleted or its SQLite table dropped (test:
 * test/maintain-cli.test.ts "reindexes a deleted index…").
 */
export async function rebuildIndex(
  driver: Driver,
  onProgress?: (progress: ReindexProgress) => void,
  options: RebuildOptions = {},
): Promise<ReindexProgress> {
  const { owner } = options;
  const scope = owner === undefined ? '' : ' AND owner = ?';
  const scoped = owner === undefined ? [] : [owner];
  const total =
    (await driver.one(CountRow, `SELECT count(*) AS n FROM search_docs WHERE 1 = 1${scope}`, scoped))?.n ?? 0;
  await driver.transaction(async (tx) => {
    const index = indexOf(tx);
    if (owner !== undefined) await index.clearOwner(tx, owner);
    else if (options.recreate) await index.recreate(tx);
    else await index.clear(tx);
  });
  onProgress?.({ done: 0, total });
  let after = 0;
  let done = 0;
  for (;;) {
    const docs = await driver.all(
      DocRef,
      `SELECT doc_id, owner, kind, ref FROM search_docs WHERE doc_id > ?${scope} ORDER BY doc_id LIMIT ?`,
      [after, ...scoped, CHUNK],
    );
    const last = docs.at(-1);
    if (!last) break;
    await driver.transaction(async (tx) => indexOf(tx).rewrite(tx, await rowsOf(tx, docs)));
    after = last.doc_id;
    done += docs.length;
    onProgress?.({ done, total });
  }
  if (owner === undefined) await driver.run('DELETE FROM settings WHERE key = ?', [REBUILD_SETTING]);
  return { done, total };
}
