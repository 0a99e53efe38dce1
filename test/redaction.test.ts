// Issue 8: through a real server, no secret of the corpus reaches any byte of the data directory (database,
// WAL, SHM, log), while look-alikes are stored as sent.
// SQLite only: it searches the bytes of the data directory, where only SQLite keeps the database.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSocketClient, type MnemoClient } from '../src/client.js';
import { loadConfig } from '../src/config.js';
import type { ObservationStatus } from '../src/observe/observe.js';
import { startServer, type RunningServer } from '../src/server.js';
import { lookalikeSamples } from './fixtures/redaction/lookalikes.js';
import { secretSamples, type SecretSample } from './fixtures/redaction/secrets.js';
import { filesUnder, findNeedles } from './helpers/needles.js';
import { createTempDirs } from './helpers/temp.js';

const OWNER = 'corpus';
const T0 = Date.parse('2026-09-01T09:00:00Z');
const dirs = createTempDirs();
let dataDir = '';
let server: RunningServer | undefined;
let client: MnemoClient | undefined;

type Route = 'event' | 'meta-note' | 'timeline';
// Text samples go as event text, as a meta string, or through timeline.append; meta samples as meta.
const routeOf = (sample: SecretSample, i: number): Route =>
  sample.meta ? 'event' : i % 10 === 7 ? 'meta-note' : i % 10 === 9 ? 'timeline' : 'event';

const needles = secretSamples.flatMap((s) => s.needles);

function event(id: string, i: number, text: string, meta?: Record<string, unknown>) {
  return {
    event_id: id,
    session_id: `sess-${Math.floor(i / 20)}`,
    kind: i % 2 ? 'agent_reply' : 'user_message',
    role: i % 2 ? 'agent' : 'user',
    at: T0 + i * 60_000,
    text,
    ...(meta ? { meta } : {}),
  };
}

async function ingestAll(c: MnemoClient): Promise<void> {
  const events: unknown[] = [];
  for (const [i, sample] of secretSamples.entries()) {
    const route = routeOf(sample, i);
    if (route === 'timeline') {
      await c.call('timeline.append', {
        owner: OWNER,
        id: `t${i}`,
        kind: 'note',
        at: T0 + i * 60_000,
        text: sample.text,
        source: { session_id: `sess-${Math.floor(i / 20)}`, file: 'notes.md' },
      });
    } else if (route === 'meta-note') {
      events.push(event(`s${i}`, i, 'see the note', { note: sample.text, n: i }));
    } else {
      events.push(event(`s${i}`, i, sample.text, sample.meta));
    }
  }
  lookalikeSamples.forEach((sample, i) => events.push(event(`l${i}`, secretSamples.length + i, sample.text)));
  for (let k = 0; k < events.length; k += 100) {
    const out = await c.call<{ accepted: number; rejected: unknown[] }>('memory.events.ingest', {
      owner: OWNER,
      events: events.slice(k, k + 100),
    });
    expect(out.rejected).toEqual([]);
  }
}

async function observed(c: MnemoClient): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    const status = await c.call<ObservationStatus>('memory.observation.status', { owner: OWNER });
    const owner = status.owners[0];
    if (owner && owner.pending_events === 0 && owner.batches.queued === 0 && owner.batches.leased === 0)
      return;
    if (Date.now() > until) throw new Error(`observation did not finish: ${JSON.stringify(owner)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  dataDir = dirs.make('mnemo-redaction-');
  // Everything the server logs goes to a file in the data directory, which is searched like the rest.
  const log = pino({ level: 'trace' }, pino.destination({ dest: join(dataDir, 'server.log'), sync: true }));
  const config = loadConfig({ dataDir, http: false, observer: 'builtin' }, {});
  server = await startServer(config, log);
  client = createSocketClient(config.socketPath);
  await ingestAll(client);
  await observed(client);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
  dirs.cleanup();
});

describe('regression for issue 8: the corpus through the API / 语料经 API 入库', () => {
  it('covers at least 400 secrets of 40 kinds and 400 look-alikes / 语料规模', () => {
    expect(secretSamples.length).toBeGreaterThanOrEqual(400);
    expect(new Set(secretSamples.map((s) => s.kind)).size).toBeGreaterThanOrEqual(40);
    expect(lookalikeSamples.length).toBeGreaterThanOrEqual(400);
    expect(secretSamples.filter((s, i) => routeOf(s, i) === 'timeline').length).toBeGreaterThan(20);
  });

  it('published memories from the corpus / 观察者已发布', async () => {
    const status = await client?.call<ObservationStatus>('memory.observation.status', { owner: OWNER });
    expect(status?.owners[0]?.memories).toBeGreaterThan(0);
  });

  it('alters at most 1 % of look-alikes / 相似非密文改动 ≤ 1 %', async () => {
    const stored = new Map<string, string>();
    for (let k = 0; k < lookalikeSamples.length; k += 200) {
      const ids = lookalikeSamples.slice(k, k + 200).map((_, i) => `l${k + i}`);
      const got = await client?.call<{ items: { id: string; text: string }[] }>('memory.evidence.get', {
        owner: OWNER,
        ids,
      });
      for (const item of got?.items ?? []) stored.set(item.id, item.text);
    }
    const altered = lookalikeSamples.filter((s, i) => stored.get(`l${i}`) !== s.text);
    expect(stored.size).toBe(lookalikeSamples.length);
    expect(altered.length / lookalikeSamples.length).toBeLessThanOrEqual(0.01);
  });

  it('no secret reaches disk while the server runs, nor after it closed / 密文从不落盘', async () => {
    const running = filesUnder(dataDir).filter((f) => !f.endsWith('.sock'));
    expect(running.map((f) => f.slice(dataDir.length + 1)).sort()).toEqual(
      expect.arrayContaining(['mnemo.sqlite3', 'mnemo.sqlite3-wal', 'mnemo.sqlite3-shm', 'server.log']),
    );
    expect([...findNeedles(running, needles)]).toEqual([]);
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
    expect([...findNeedles(filesUnder(dataDir), needles)]).toEqual([]);
    // FTS5 stores terms prefix-compressed, so a term's bytes need not appear whole: ask the index itself.
    const db = new Database(join(dataDir, 'mnemo.sqlite3'), { readonly: true });
    try {
      // Terms are keyed by their owner's number (`12_term`): compare what follows the key.
      const terms = (db.prepare('SELECT DISTINCT term FROM search_postings').pluck().all() as string[]).map(
        (t) => t.replace(/^\d+_/, ''),
      );
      const cores = needles.map((n) => n.toLowerCase());
      const leaked = terms.filter((t) => t.length >= 8 && /\d/.test(t) && cores.some((c) => c.includes(t)));
      expect(terms.length).toBeGreaterThan(1000);
      expect(leaked.map((t) => [t, needles.find((n) => n.toLowerCase().includes(t))])).toEqual([]);
    } finally {
      db.close();
    }
  });
});
