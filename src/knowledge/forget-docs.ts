// What memory.forget deletes of the index: the documents of forgotten items with their vectors, and the
// next turn of a forgotten event's session, whose context field quoted it (indexed again without it).
import { embedAgain, removeVectors } from '../embed/store.js';
import { contextOf, eventIndexRow } from '../ingest/prepare.js';
import { getEventsByIds } from '../ingest/store.js';
import { indexOf, indexRows } from '../search/search.js';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, row, str } from '../storage/rows.js';
import { tokenize } from '../text/tokenize.js';
import { inList } from './objects.js';

/** Lists cut to this many SQL parameters. */
const CHUNK = 400;

export function chunksOf<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** `col` holds `needle` (a plain substring, no LIKE wildcards). */
export const containsSql = (db: Queryable, col: string): string =>
  db.dialect === 'sqlite' ? `instr(${col}, ?) > 0` : `strpos(${col}, ?) > 0`;

export interface Tally {
  index: number;
  reindexed: number;
  vectors: number;
}

/** Which documents: an event's, an object's, or a memory's (kind = its memory kind). */
export type DocClass = 'event' | 'object' | 'memory';

const DocRef = row({ doc_id: int, kind: str, ref: str });
const kindSql: Record<DocClass, string> = {
  event: `kind = 'event'`,
  object: `kind = 'object'`,
  memory: `kind NOT IN ('event', 'object')`,
};

/** Deletes the index documents and vectors of these items of `owner`. */
export async function dropDocs(
  tx: Queryable,
  owner: string,
  cls: DocClass,
  refs: readonly string[],
  tally: Tally,
): Promise<void> {
  for (const part of chunksOf(refs)) {
    const docs = await tx.all(
      DocRef,
      `SELECT doc_id, kind, ref FROM search_docs WHERE owner = ? AND ${kindSql[cls]} AND ref IN ${inList(part)}`,
      [owner, ...(part as SqlValue[])],
    );
    tally.vectors += await removeVectors(
      tx,
      owner,
      docs.map((d) => d.doc_id),
    );
    const index = indexOf(tx);
    for (const d of docs) if (await index.remove(tx, owner, d.kind, d.ref)) tally.index++;
  }
}

const TurnRow = row({ seq: int, session_id: str });
const NextRow = row({ event_id: str });
const TextRow = row({ text: str });

export interface Turn {
  seq: number;
  session_id: string;
}

/** The session turns of these events, read before they are deleted. */
export async function turnsOf(tx: Queryable, owner: string, eventIds: readonly string[]): Promise<Turn[]> {
  const out: Turn[] = [];
  for (const part of chunksOf(eventIds)) {
    out.push(
      ...(await tx.all(
        TurnRow,
        `SELECT seq, session_id FROM events
          WHERE owner = ? AND session_id IS NOT NULL AND event_id IN ${inList(part)}`,
        [owner, ...part],
      )),
    );
  }
  return out;
}

/**
 * After the events are deleted: the turn that followed each forgotten one in its session indexes the turn
 * before it as context, so it is indexed again with the context it has now.
 */
export async function reindexNeighbours(
  tx: Queryable,
  owner: string,
  turns: readonly Turn[],
  tally: Tally,
): Promise<void> {
  const next = new Set<string>();
  for (const t of turns) {
    const found = await tx.one(
      NextRow,
      'SELECT event_id FROM events WHERE owner = ? AND session_id = ? AND seq > ? ORDER BY seq LIMIT 1',
      [owner, t.session_id, t.seq],
    );
    if (found) next.add(found.event_id);
  }
  const events = await getEventsByIds(tx, owner, [...next]);
  const scratch: Tally = { index: 0, reindexed: 0, vectors: 0 };
  for (const event of events) {
    await dropDocs(tx, owner, 'event', [event.event_id], scratch);
    const previous = event.session_id
      ? await tx.one(
          TextRow,
          'SELECT text FROM events WHERE owner = ? AND session_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1',
          [owner, event.session_id, event.seq],
        )
      : undefined;
    const context = previous ? contextOf(tokenize(previous.text)) : '';
    await indexRows(tx, [eventIndexRow(event, tokenize(event.text), context)]);
    await embedAgain(tx, owner, 'event', event.event_id);
    tally.reindexed++;
  }
  // The neighbours' old vectors go too (the worker embeds their new documents).
  tally.vectors += scratch.vectors;
}
