// Ingest throughput: events through memory.events.ingest, and raw better-sqlite3 inserts of the same rows.
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { LocalClient } from '../src/index.js';
import type { BenchEvent, EventSource } from './corpus.js';

export const BATCH = 500;

export interface IngestFigures {
  events: number;
  seconds: number;
  perSecond: number;
  accepted: number;
  rejected: number;
}

interface IngestReply {
  accepted: number;
  duplicates: number;
  rejected: unknown[];
}

export type Progress = (done: number) => void;

/** Events [from, to) through the public method, in batches of 500 (each one durable transaction). */
export async function ingestThroughApi(
  client: LocalClient,
  owner: string,
  source: EventSource,
  from: number,
  to: number,
  progress: Progress,
): Promise<IngestFigures> {
  let accepted = 0;
  let rejected = 0;
  let busy = 0;
  for (let at = from; at < to; at += BATCH) {
    const events = source.batch(at, Math.min(to, at + BATCH));
    const started = performance.now();
    const reply = await client.call<IngestReply>('memory.events.ingest', { owner, events });
    busy += performance.now() - started;
    accepted += reply.accepted;
    rejected += reply.rejected.length;
    progress(at + events.length);
  }
  return figures(to - from, busy, accepted, rejected);
}

const figures = (events: number, ms: number, accepted: number, rejected: number): IngestFigures => ({
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
      for (let at = from; at < to; at += BATCH) {
        const events = source.batch(at, Math.min(to, at + BATCH));
        const started = performance.now();
        insertBatch(events);
        busy += performance.now() - started;
        progress(at + events.length);
      }
      return figures(to - from, busy, to - from, 0);
    },
    close: () => void db.close(),
  };
}
