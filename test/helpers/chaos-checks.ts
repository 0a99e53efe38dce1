// What must hold on the database after any interleaving of ingest, observation and SIGKILL: each check
// lists its violations (empty when it holds), read on a connection allowed every owner.
import pg from 'pg';
import { ReceiptSchema } from '../../src/observe/schema.js';

/** One ingest call a client sent: its owner, its event ids, and whether an answer acknowledged it. */
export interface SentCall {
  owner: string;
  ids: string[];
  acked: boolean;
}

export interface ChaosFindings {
  violations: string[];
  counts: { events: number; batches: number; memories: number; sources: number };
}

type Rows = Array<Record<string, unknown>>;
type Report = (what: string, rows: Rows) => void;
type Query = (sql: string) => Promise<Rows>;

/** Runs `work` on a connection to the store at `url` that row-level security lets see every owner. */
export async function asEveryOwner<T>(url: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`SELECT set_config('mnemo.owners', '*', false)`);
    return await work(db);
  } finally {
    await db.end();
  }
}

export const checkStore = (url: string, calls: readonly SentCall[]): Promise<ChaosFindings> =>
  asEveryOwner(url, async (db) => {
    const q: Query = async (sql) => (await db.query(sql)).rows as Rows;
    const violations: string[] = [];
    const report: Report = (what, rows) => {
      if (rows.length > 0) violations.push(`${what}: ${JSON.stringify(rows.slice(0, 5))} (${rows.length})`);
    };
    const events = await checkEvents(q, calls, violations, report);
    const batches = await checkBatches(q, report);
    const memories = await checkMemories(q, batches.receipted, report);
    return { violations, counts: { events, batches: batches.count, ...memories } };
  });

/** Every acknowledged event once; an unacknowledged call all there or not at all; nothing else stored. */
async function checkEvents(q: Query, calls: readonly SentCall[], violations: string[], report: Report) {
  const stored = await q('SELECT owner, event_id, count(*)::int AS n FROM events GROUP BY owner, event_id');
  const times = new Map(stored.map((r) => [`${String(r.owner)}/${String(r.event_id)}`, Number(r.n)]));
  const sent = new Set<string>();
  for (const call of calls) {
    const found = call.ids.map((id) => times.get(`${call.owner}/${id}`) ?? 0);
    for (const id of call.ids) sent.add(`${call.owner}/${id}`);
    if (call.acked && found.some((n) => n !== 1)) {
      violations.push(`acknowledged call not stored exactly once: ${call.owner} ${call.ids[0]} ${found}`);
    }
    // An unacknowledged call may have committed before its process died: all of it, or none.
    if (!call.acked && !(found.every((n) => n === 0) || found.every((n) => n === 1))) {
      violations.push(`unacknowledged call stored in part or twice: ${call.owner} ${call.ids[0]} ${found}`);
    }
  }
  report(
    'stored events no client sent, or stored twice',
    stored.filter((r) => Number(r.n) !== 1 || !sent.has(`${String(r.owner)}/${String(r.event_id)}`)),
  );
  report(
    'events with no index document',
    await q(`SELECT e.owner, e.event_id FROM events e WHERE NOT EXISTS
              (SELECT 1 FROM search_docs d WHERE d.owner = e.owner AND d.kind = 'event' AND d.ref = e.event_id)`),
  );
  return stored.length;
}

/** Every event in exactly one batch and consumed by it; every batch published once, with its receipt. */
async function checkBatches(q: Query, report: Report) {
  report(
    'events not in exactly one batch',
    await q(`SELECT e.owner, e.seq, (SELECT count(*)::int FROM observation_items i WHERE i.seq = e.seq) AS n
               FROM events e WHERE (SELECT count(*) FROM observation_items i WHERE i.seq = e.seq) <> 1`),
  );
  report(
    'events not consumed by their batch',
    await q(`SELECT e.owner, e.seq FROM events e JOIN observation_items i ON i.seq = e.seq
              WHERE NOT EXISTS (SELECT 1 FROM observation_consumed c WHERE c.owner = e.owner AND c.seq = e.seq
                                   AND c.batch_id = i.batch_id AND c.disposition IN ('cited', 'discarded'))`),
  );
  const batches = await q('SELECT batch_id, owner, state, publish_seq, receipt FROM observation_batches');
  report(
    'batches not published with a receipt',
    batches.filter((b) => b.state !== 'published' || b.receipt === null || b.publish_seq === null),
  );
  // Each publish takes the owner's next number: as many batches as numbers, none used twice.
  report(
    'publish numbers used twice or skipped',
    await q(`SELECT o.owner, o.publish_seq, count(b.*)::int AS batches, count(DISTINCT b.publish_seq)::int AS seqs
               FROM observation_owners o LEFT JOIN observation_batches b ON b.owner = o.owner
              GROUP BY o.owner, o.publish_seq
             HAVING count(b.*) <> o.publish_seq OR count(DISTINCT b.publish_seq) <> o.publish_seq`),
  );
  const receipted = new Map<string, string>();
  for (const b of batches.filter((b) => typeof b.receipt === 'string')) {
    const receipt = ReceiptSchema.parse(JSON.parse(String(b.receipt)));
    if (receipt.batch_id !== b.batch_id) report('receipts naming another batch', [b]);
    for (const id of receipt.memory_ids) receipted.set(id, String(b.owner));
  }
  return { count: batches.length, receipted };
}

/** Every memory in a receipt of its owner, with sources, each source an event of the memory's owner. */
async function checkMemories(q: Query, receipted: Map<string, string>, report: Report) {
  const memories = await q('SELECT memory_id, owner FROM memories');
  report(
    'memories in no receipt of their owner',
    memories.filter((m) => receipted.get(String(m.memory_id)) !== m.owner),
  );
  const known = new Set(memories.map((m) => String(m.memory_id)));
  report(
    'receipts naming a memory that is not stored',
    [...receipted.keys()].filter((id) => !known.has(id)).map((memory_id) => ({ memory_id })),
  );
  report(
    'memories without a source',
    await q(`SELECT m.memory_id FROM memories m
              WHERE NOT EXISTS (SELECT 1 FROM memory_sources s WHERE s.memory_id = m.memory_id)`),
  );
  report(
    'memory sources of another owner or of no event',
    await q(`SELECT s.memory_id, s.owner, s.event_id FROM memory_sources s JOIN memories m USING (memory_id)
              WHERE s.owner <> m.owner
                 OR NOT EXISTS (SELECT 1 FROM events e WHERE e.owner = m.owner AND e.event_id = s.event_id)`),
  );
  const [sources] = await q('SELECT count(*)::int AS n FROM memory_sources');
  return { memories: memories.length, sources: Number(sources?.n ?? 0) };
}
