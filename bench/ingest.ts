// Ingest throughput: events through memory.events.ingest on the server's socket, and raw better-sqlite3
// inserts of the same rows in the bench process.
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { MnemoClient } from '../src/index.js';
import type { BenchEvent, EventSource } from './corpus.js';

export const BATCH = 500;
/** A batch's events as JSON stay under this, so its request line stays under the server's 1 MB limit. */
export const MAX_BATCH_JSON_BYTES = 1_000_000;

export interface IngestFigures {
  events: number;
  seconds: number;
  perSecond: number;
  accepted: number;
  rejected: number;
  batches: number;
  /** Batches cut before 500 events to keep the request line under the limit. */
  cut: number;
}

interface IngestReply {
  accepted: number;
  duplicates: number;
  rejected: unknown[];
}

export type Progress = (done: number) => void;

/** Up to BATCH events from `at`, fewer when their JSON would pass MAX_BATCH_JSON_BYTES. */
function nextBatch(source: EventSource, at: number, to: number): { events: BenchEvent[]; cut: boolean } {
  const events: BenchEvent[] = [];
  let bytes = 2;
  for (let i = at; i < Math.min(to, at + BATCH); i++) {
    const event = source.event(i);
    const size = Buffer.byteLength(JSON.stringify(event)) + 1;
    if (events.length > 0 && bytes + size > MAX_BATCH_JSON_BYTES) return { events, cut: true };
    events.push(event);
    bytes += size;
  }
  return { events, cut: false };
}

/** Events [from, to) through the server's socket in batches of 500, each one durable transaction. */
export async function ingestThroughSocket(
  client: MnemoClient,
  owner: string,
  source: EventSource,
  from: number,
  to: number,
  progress: Progress,
): Promise<IngestFigures> {
  let accepted = 0;
  let rejected = 0;
  let busy = 0;
  let batches = 0;
  let cut = 0;
  for (let at = from; at < to;) {
    const batch = nextBatch(source, at, to);
    const started = performance.now();
    const reply = await client.call<IngestReply>('memory.events.ingest', { owner, events: batch.events });
    busy += performance.now() - started;
    accepted += reply.accepted;
    rejected += reply.rejected.length;
    batches++;
    if (batch.cut) cut++;
    at += batch.events.length;
    progress(at);
  }
  return { ...figures(to - from, busy, accepted, rejected), batches, cut };
}

const figures = (events: number, ms: number, accepted: number, rejected: number) => ({
  events,
  seconds: ms / 1000,
  perSecond: events / (ms / 1000),
  accepted,
  rejected,
});

export interface RawTable {
  insert(source: EventSource, from: number, to: number, progress: Progress): IngestFigures;
  close(): void;
}

/** The same rows into a plain table: WAL, synchronous=FULL, one transaction per 500 rows. */
export function openRawTable(path: string): RawTable {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    `CREATE TABLE raw_events (event_id TEXT NOT NULL, session_id TEXT, kind TEXT NOT NULL, role TEXT NOT NULL,
       at INTEGER NOT NULL, text TEXT NOT NULL)`,
  );
  const insert = db.prepare('INSERT INTO raw_events VALUES (?, ?, ?, ?, ?, ?)');
  const insertBatch = db.transaction((events: readonly BenchEvent[]) => {
    for (const e of events) insert.run(e.event_id, e.session_id, e.kind, e.role, e.at, e.text);
  });
  return {
    insert(source: EventSource, from: number, to: number, progress: Progress): IngestFigures {
      let busy = 0;
      let batches = 0;
      for (let at = from; at < to; at += BATCH) {
        const events = source.batch(at, Math.min(to, at + BATCH));
        const started = performance.now();
        insertBatch(events);
        busy += performance.now() - started;
        batches++;
        progress(at + events.length);
      }
      return { ...figures(to - from, busy, to - from, 0), batches, cut: 0 };
    },
    close: () => void db.close(),
  };
}

export interface ConcurrentIngest {
  events: number;
  /** Wall time from the first call's start to the last call's end. */
  seconds: number;
  perSecond: number;
  accepted: number;
  rejected: number;
}

/**
 * Events [0, total) split evenly over `clients` (each its own owner, `owners[j]`), all sending at once in
 * batches of 500; throughput over the wall time, since the calls overlap.
 */
export async function ingestConcurrently(
  clients: readonly MnemoClient[],
  owners: readonly string[],
  source: EventSource,
  total: number,
): Promise<ConcurrentIngest> {
  const per = Math.floor(total / clients.length);
  const started = performance.now();
  const parts = await Promise.all(
    clients.map((client, j) =>
      ingestThroughSocket(client, owners[j] ?? `bench-${j}`, source, j * per, (j + 1) * per, () => {}),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const events = per * clients.length;
  return {
    events,
    seconds,
    perSecond: events / seconds,
    accepted: parts.reduce((n, p) => n + p.accepted, 0),
    rejected: parts.reduce((n, p) => n + p.rejected, 0),
  };
}
