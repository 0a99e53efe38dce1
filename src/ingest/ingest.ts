// Ingest: prepare (validate, redact, hash, tokenize; on worker threads for large calls), then store
// events and index them in one transaction.
import type { Driver, Queryable } from '../storage/driver.js';
import { indexRows, withContext, type IndexRow } from '../search/search.js';
import type { Redactor } from '../text/redact.js';
import { tokenize } from '../text/tokenize.js';
import { contextOf, inlinePreparer, type PreparedEvent, type Preparer } from './prepare.js';
import type { IngestResult, Rejection } from './schema.js';
import { insertEvent, noteOwnerEvents } from './store.js';
import { row, str } from '../storage/rows.js';

const TextRow = row({ text: str });

export { CONTEXT_TOKENS } from './prepare.js';

export interface IngestDeps {
  driver: Driver;
  redactor: Redactor;
  /** Secret of this store: content hashes are keyed so they reveal nothing about redacted text. */
  salt: string;
  now?: () => number;
  /** Where events are prepared; default: on the calling thread. */
  preparer?: Preparer;
}

/**
 * Gives each document the tail of the turn before it in its session, taken from the batch; returns
 * the first turn of each session in the batch, whose previous turn is stored (or absent).
 */
function addBatchContext(prepared: readonly PreparedEvent[]): PreparedEvent[] {
  const last = new Map<string, PreparedEvent>();
  const first: PreparedEvent[] = [];
  for (const p of prepared) {
    const session = p.row.session_id;
    if (session === null) continue;
    const before = last.get(session);
    if (before) p.doc.fields = withContext(p.doc.fields, before.tail);
    else first.push(p);
    last.set(session, p);
  }
  return first;
}

/** The latest stored turn of each session as context; runs inside the transaction, before the inserts. */
async function addStoredContext(
  tx: Queryable,
  owner: string,
  first: readonly PreparedEvent[],
): Promise<void> {
  for (const p of first) {
    const row = await tx.one(
      TextRow,
      'SELECT text FROM events WHERE owner = ? AND session_id = ? ORDER BY seq DESC LIMIT 1',
      [owner, p.row.session_id],
    );
    if (row) p.doc.fields = withContext(p.doc.fields, contextOf(tokenize(row.text)));
  }
}

export interface IngestOutcome extends IngestResult {
  /** Seq of each newly stored event, by event_id. */
  stored: Map<string, number>;
}

/**
 * Stores every valid event; rejects the others one by one.
 * invariant: an event id seen before with other content is rejected and the stored event untouched
 * (test: "EVENT_CONFLICT leaves the stored event untouched").
 */
export async function ingestEvents(
  deps: IngestDeps,
  owner: string,
  raw: readonly unknown[],
): Promise<IngestOutcome> {
  const preparer = deps.preparer ?? inlinePreparer(deps);
  const { prepared, rejected } = await preparer.prepare(owner, raw);

  const firstOfSession = addBatchContext(prepared);

  const now = (deps.now ?? Date.now)();
  const stored = new Map<string, number>();
  let duplicates = 0;
  const seenInCall = new Map<string, string>();
  await deps.driver.transaction(async (tx) => {
    // The owner's writers take turns, so its sequence numbers are committed in order (storage/driver.ts).
    await tx.lockOwner(owner);
    await addStoredContext(tx, owner, firstOfSession);
    const docs: IndexRow[] = [];
    for (const p of prepared) {
      const earlier = seenInCall.get(p.row.event_id);
      if (earlier !== undefined) {
        if (earlier === p.row.content_hash) duplicates++;
        else rejected.push(conflict(p.row.event_id));
        continue;
      }
      seenInCall.set(p.row.event_id, p.row.content_hash);
      const result = await insertEvent(tx, p.row, now);
      if (result.inserted) {
        stored.set(p.row.event_id, result.seq);
        docs.push(p.doc);
      } else if (result.existingHash === p.row.content_hash) {
        duplicates++;
      } else {
        rejected.push(conflict(p.row.event_id));
      }
    }
    await indexRows(tx, docs);
    await noteOwnerEvents(tx, owner, stored.size, Math.max(0, ...stored.values()));
  });
  return { accepted: stored.size, duplicates, rejected, stored };
}

const conflict = (eventId: string): Rejection => ({
  event_id: eventId,
  code: 'EVENT_CONFLICT',
  message: `event ${eventId} was stored before with different content; the stored event is unchanged`,
});
