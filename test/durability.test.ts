// Kill -9 mid-stream: every acknowledged event survives exactly once and the database stays intact.
// SQLite only: it checks the SQLite file's integrity after the kill (PostgreSQL's durability is the server's).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSocketClient } from '../src/client.js';
import { spawnServer } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

const CLIENTS = 4;
const BATCH = 50;

function batchOf(client: number, batch: number) {
  return Array.from({ length: BATCH }, (_, i) => ({
    event_id: `c${client}-b${batch}-${i}`,
    session_id: `s${client}`,
    kind: i % 2 === 0 ? 'user_message' : 'agent_reply',
    role: i % 2 === 0 ? 'user' : 'agent',
    at: 1_790_000_000_000 + batch * 1000 + i,
    text: `client ${client} batch ${batch} item ${i}: 第${batch}批次的第${i}条消息 about invoices and flights`,
  }));
}

describe('durability', () => {
  it('keeps every acknowledged event exactly once across SIGKILL and restart', async () => {
    const dataDir = temp.make();
    const server = await spawnServer(['--data-dir', dataDir, '--no-http']);
    const acked = new Set<string>();
    let stop = false;

    const writer = async (client: number) => {
      const conn = createSocketClient(server.socketPath);
      try {
        for (let b = 0; !stop; b++) {
          const events = batchOf(client, b);
          try {
            const result = await conn.call<{ accepted: number; rejected: unknown[] }>(
              'memory.events.ingest',
              {
                owner: `owner-${client % 2}`,
                events,
              },
            );
            expect(result.rejected).toEqual([]);
            for (const e of events) acked.add(`owner-${client % 2}/${e.event_id}`);
          } catch {
            return; // the server died under us: this batch was never acknowledged
          }
        }
      } finally {
        await conn.close().catch(() => undefined);
      }
    };

    const writers = Array.from({ length: CLIENTS }, (_, i) => writer(i));
    while (acked.size < CLIENTS * BATCH * 4) await new Promise((r) => setTimeout(r, 5));
    const killedAfter = acked.size;
    server.child.kill('SIGKILL');
    await server.exited;
    stop = true;
    await Promise.all(writers);
    expect(killedAfter).toBeGreaterThan(0);

    const restarted = await spawnServer(['--data-dir', dataDir, '--no-http']);
    const conn = createSocketClient(restarted.socketPath);
    const health = await conn.call<{ counts: { events: number } }>('health');
    expect(health.counts.events).toBeGreaterThanOrEqual(acked.size);
    // a sample of acknowledged ids reads back through the API after restart
    const sample = [...acked].slice(0, 100).map((k) => k.split('/') as [string, string]);
    for (const owner of ['owner-0', 'owner-1']) {
      const mine = sample.filter(([o]) => o === owner).map(([, id]) => id);
      if (mine.length === 0) continue;
      const ev = await conn.call<{ missing: string[] }>('memory.evidence.get', { owner, ids: mine });
      expect(ev.missing).toEqual([]);
    }
    await conn.close();
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);

    const db = new Database(join(dataDir, 'mnemo.sqlite3'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = db
        .prepare('SELECT owner, event_id, count(*) AS n FROM events GROUP BY owner, event_id')
        .all() as Array<{
        owner: string;
        event_id: string;
        n: number;
      }>;
      const counts = new Map(stored.map((r) => [`${r.owner}/${r.event_id}`, r.n]));
      for (const key of acked) expect(counts.get(key), key).toBe(1);
      const docs = db.prepare(`SELECT count(*) AS n FROM search_docs WHERE kind = 'event'`).get() as {
        n: number;
      };
      expect(docs.n).toBe(stored.length);
    } finally {
      db.close();
    }
  }, 60_000);
});
