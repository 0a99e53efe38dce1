// memory.forget leaves no byte behind: a marker (Chinese and English) in events, observed memories, a
// track entry, an object and two sessions' working memory (memory.gate), embedded by a scripted server over
// real HTTP; after a forget with events,
// no file of the data directory (SQLite: database, WAL, shared memory) holds the marker or any of its
// index terms, and no table row does (pgvector on PGlite). A marker planted where forget does not look
// is found, so the search can fail.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventInput } from '../index.js';
import {
  client,
  currentEngine,
  drain,
  ingest,
  minutes,
  observe,
  open,
  service,
  storedVectors,
  useVectorEngine,
  VECTOR_ENGINES,
  workerOf,
} from '../../test/embed/harness.js';
import { markerRows } from '../../test/helpers/marker-rows.js';
import { createInjectRuntime } from '../inject/runtime.js';
import type { GateResult } from '../inject/schema.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { int, row, str } from '../storage/rows.js';
import type { ForgetResult } from './forget-schema.js';

const MARK = 'zq9火烈鸟密语';
const WORD = 'flamingoquartz';
/** The marker and its index terms as tokenize() makes them: CJK bigrams, the Latin word and id. */
const NEEDLES = [MARK, WORD, '火烈', '烈鸟', '鸟密', '密语', '_zq9'];
/** Single characters are too short to look for in raw bytes: the index's vocabulary is asked for them. */
const CHARS = ['火', '烈', '鸟', '密', '语'];

const MARKED = [
  { event_id: 'k1', session_id: 'sk', kind: 'user_message', role: 'user', at: minutes(0), text: `我们项目的暗号是${MARK}，记住它` },
  { event_id: 'k2', session_id: 'sk', kind: 'agent_reply', role: 'agent', at: minutes(1), text: `好的，暗号 ${MARK} 已记下，${WORD} too.` },
  { event_id: 'k3', session_id: 'sk', kind: 'user_message', role: 'user', at: minutes(2), text: `From now on the passphrase is ${WORD}.` },
  { event_id: 'k4', session_id: 'sk', kind: 'task_result', role: 'system', at: minutes(3), text: `Saved ${WORD} ${MARK}.` },
] as EventInput[]; // prettier-ignore
/** The next turn of the same session: its index context quoted k4. */
const AFTER = [
  { event_id: 'k5', session_id: 'sk', kind: 'user_message', role: 'user', at: minutes(30), text: 'Thanks, that is all for today.' },
] as EventInput[]; // prettier-ignore
const OTHER = [
  { event_id: 'o1', session_id: 'so', kind: 'user_message', role: 'user', at: minutes(40), text: 'I parked the car in the garage near the office.' },
  { event_id: 'o2', session_id: 'so', kind: 'task_result', role: 'system', at: minutes(41), text: '汽车保养预约在周六上午' },
] as EventInput[]; // prettier-ignore

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : [path];
  });
}

/** Each needle found in the bytes of a file of the data directory, as `file: needle`. */
function bytesHits(dir: string, needles: readonly string[]): string[] {
  return filesOf(dir).flatMap((file) => {
    const bytes = readFileSync(file);
    return needles.filter((n) => bytes.includes(Buffer.from(n, 'utf8'))).map((n) => `${file}: ${n}`);
  });
}

/** Index terms (SQLite's FTS5 vocabulary) holding one of the strings. */
async function indexTerms(strings: readonly string[]): Promise<string[]> {
  const db = service?.driver;
  if (!db) throw new Error('no service');
  const rows = await db.all(row({ term: str }), 'SELECT DISTINCT term FROM search_postings');
  return rows.map((r) => r.term).filter((t) => strings.some((s) => t.includes(s)));
}

/** Every memory and object of alice that holds the marker. */
async function markedItems(): Promise<string[]> {
  const db = service?.driver;
  if (!db) throw new Error('no service');
  const rows = await db.all(
    row({ id: str }),
    `SELECT memory_id AS id FROM memories WHERE owner = 'alice' AND (text LIKE ? OR text LIKE ?)
     UNION SELECT object_id AS id FROM objects WHERE owner = 'alice' AND (name || ' ' || body LIKE ? OR name || ' ' || body LIKE ?)`,
    [`%${MARK}%`, `%${WORD}%`, `%${MARK}%`, `%${WORD}%`],
  );
  return rows.map((r) => r.id).sort();
}

/** What a host hands the gate: the marked turn, and one of another session that also names the car. */
const MARKED_TURN = { session_id: 'sk', segment: { kind: 'user_message', text: `暗号是${MARK}，${WORD}` } };
const SEGMENTS = [
  MARKED_TURN,
  {
    session_id: 'sx',
    segment: { kind: 'user_message', text: `The car goes to the garage, ${WORD} 火烈鸟密语` },
  },
];

/** memory.gate over a runtime the test waits on (a prefetch's search has settled when this returns). */
async function gate(p: { session_id: string; segment: { kind: string; text: string } }): Promise<GateResult> {
  if (!service) throw new Error('no service');
  const runtime = createInjectRuntime(service);
  const local = createLocalClient(createMethodTable(service, { inject: runtime }));
  const out = await local.call<GateResult>('memory.gate', { owner: 'alice', ...p });
  await runtime.idle();
  return out;
}

/** Every term of every working-memory segment of alice, as `session: term`. */
async function ringTerms(): Promise<string[]> {
  const db = service?.driver;
  if (!db) throw new Error('no service');
  const rows = await db.all(
    row({ session_id: str, terms: str }),
    `SELECT session_id, terms FROM working_segments WHERE owner = 'alice' ORDER BY session_id, context_cursor`,
  );
  return rows.flatMap((r) => (JSON.parse(r.terms) as string[]).map((t) => `${r.session_id}: ${t}`));
}

async function seedMarked(): Promise<void> {
  const svc = await open();
  await ingest('alice', [...MARKED, ...OTHER]);
  await ingest('bob', [{ ...OTHER[0], event_id: 'b1' } as EventInput]);
  await observe(svc);
  await ingest('alice', AFTER);
  await observe(svc);
  await client.call('memory.track.add', { owner: 'alice', track: 'memory', text: `项目暗号：${MARK}` });
  await client.call('memory.chain.upsert', {
    owner: 'alice',
    objects: [
      { type: 'knowledge', name: `${WORD} 暗号`, aliases: [MARK], body: `暗号 ${MARK} 只给项目成员` },
    ],
  });
  for (const segment of SEGMENTS) await gate(segment);
  await drain(workerOf(svc));
}

describe.each(VECTOR_ENGINES)('memory.forget on %s', (engine) => {
  useVectorEngine(engine);

  it('with events leaves no byte of the marker in any file, row, index term or vector', async () => {
    await seedMarked();
    const db = service?.driver;
    if (!db || !service) throw new Error('no service');
    const items = await markedItems();
    expect(items.length).toBeGreaterThanOrEqual(3);
    const vectorsBefore = (await storedVectors()) ?? 0;
    if (currentEngine() === 'sqlite') {
      await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      expect(bytesHits(service.config.dataDir, NEEDLES).length).toBeGreaterThan(0);
    } else expect(await markerRows(db, [MARK, WORD])).not.toEqual([]);

    const out = await client.call<ForgetResult>('memory.forget', {
      owner: 'alice',
      ids: items,
      with_events: true,
    });
    expect(out.forgotten.events).toEqual(expect.arrayContaining(['k1', 'k2', 'k3', 'k4']));
    expect(out.forgotten.events).not.toContain('o1');
    expect(out.counts.vectors).toBeGreaterThan(0);
    expect(out.counts.reindexed).toBeGreaterThanOrEqual(1);
    expect(await storedVectors()).toBe(vectorsBefore - out.counts.vectors);

    if (currentEngine() === 'sqlite') {
      await service.close();
      expect(bytesHits(service.config.dataDir, NEEDLES)).toEqual([]);
      await open();
      expect(await indexTerms([...NEEDLES, ...CHARS, WORD])).toEqual([]);
    } else {
      expect(await markerRows(db, [...NEEDLES, ...CHARS])).toEqual([]);
    }
    // What stays is whole: the other session is still found.
    const left = await client.call<{ items: Array<{ id: string }> }>('memory.recall', {
      owner: 'alice',
      query: 'garage',
      wait_ms: 60_000,
    });
    expect(left.items.map((i) => i.id)).toContain('o1');
  });

  it("takes forgotten words out of every session's working memory: gate, packet and snapshot", async () => {
    await seedMarked();
    const before = await ringTerms();
    expect(before).toEqual(expect.arrayContaining(['sk: flamingoquartz', 'sx: flamingoquartz', 'sx: car']));
    const repeated = await gate(MARKED_TURN);
    expect(repeated.signals.novelty).toBe(0);

    const out = await client.call<ForgetResult>('memory.forget', {
      owner: 'alice',
      ids: await markedItems(),
      with_events: true,
    });
    // The marked session's segments name the object (its alias), so they go with it; the other is rewritten.
    expect(out.counts.working_segments).toBe(1);
    const after = await ringTerms();
    expect(after.filter((t) => NEEDLES.some((n) => t.includes(n)))).toEqual([]);
    // A word other items still hold is not forgotten content: the other session keeps it.
    expect(after).toEqual(expect.arrayContaining(['sx: car', 'sx: garag']));
    expect(after.some((t) => t.startsWith('sk: '))).toBe(false);

    // A packet asked of the working memory, and the snapshot, name nothing forgotten.
    for (const session_id of ['sk', 'sx']) {
      const packet = await client.call('memory.packet.build', {
        owner: 'alice',
        session_id,
        wait_ms: 60_000,
      });
      const snapshot = await client.call('memory.snapshot', { owner: 'alice', session_id });
      for (const shown of [JSON.stringify(packet), JSON.stringify(snapshot)])
        expect(NEEDLES.filter((n) => shown.includes(n))).toEqual([]);
    }
    // Said again, the forgotten turn is news to the gate, not a repeat of what it was told.
    const again = await gate(MARKED_TURN);
    expect(again.signals.novelty).toBe(1);
  });

  it('a search running across a forget stores no answer: its request fails as forgotten', async () => {
    await seedMarked();
    if (!service) throw new Error('no service');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The search reads the store before the forget and answers after it.
    const runtime = createInjectRuntime(service, {
      search: async (params, recall) => {
        const answer = await recall(params);
        await held;
        return answer;
      },
    });
    const local = createLocalClient(createMethodTable(service, { inject: runtime }));
    const asked = await local.call<{ status: string; request_id: string }>('memory.recall', {
      owner: 'alice',
      query: `${WORD} 暗号`,
      wait_ms: 0,
    });
    expect(asked.status).toBe('pending');
    await client.call('memory.forget', { owner: 'alice', ids: await markedItems(), with_events: true });
    release();
    await runtime.idle();
    const request = await local.call<Record<string, unknown>>('memory.requests.get', {
      owner: 'alice',
      request_id: asked.request_id,
    });
    expect(request).toMatchObject({ status: 'failed', error: { code: 'forgotten' } });
    expect(request).not.toHaveProperty('result');
    const stored = JSON.stringify(
      await service.driver.all(
        row({ result: str }),
        `SELECT coalesce(result, '') AS result FROM recall_requests`,
      ),
    );
    expect(NEEDLES.filter((n) => stored.includes(n))).toEqual([]);
  });

  it('a batch embedded while its documents are forgotten writes no vector for them', async () => {
    const svc = await open();
    await ingest('alice', [...MARKED, ...OTHER]);
    await observe(svc);
    const provider = svc.embedding?.provider;
    if (!provider) throw new Error('no embedding configured');
    let forgotten: ForgetResult | undefined;
    // The forget commits while the model answers: the worker holds no transaction meanwhile.
    const racing = {
      id: provider.id,
      dimensions: provider.dimensions,
      async embed(texts: readonly string[], options?: { signal?: AbortSignal }) {
        forgotten ??= await client.call<ForgetResult>('memory.forget', {
          owner: 'alice',
          ids: await markedItems(),
          with_events: true,
        });
        return provider.embed(texts, options);
      },
    };
    await drain(workerOf(svc, { provider: racing }));
    expect(forgotten?.counts.vectors).toBe(0);
    const db = svc.driver;
    const orphans = await db.all(
      row({ n: int }),
      currentEngine() === 'sqlite'
        ? 'SELECT count(*) AS n FROM vec_docs v WHERE NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.doc_id = v.rowid)'
        : 'SELECT count(*)::int AS n FROM vec_docs v WHERE NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.doc_id = v.doc_id)',
    );
    expect(orphans[0]?.n).toBe(0);
    expect(await storedVectors()).toBeGreaterThan(0);
  });

  it.runIf(engine === 'sqlite')(
    'refuses, deleting nothing, when vectors exist but sqlite-vec is not loaded',
    async () => {
      await seedMarked();
      const items = await markedItems();
      await open(false);
      const refused = await client.call('memory.forget', { owner: 'alice', ids: items }).then(
        () => undefined,
        (e: unknown) => (e as { code?: string }).code,
      );
      expect(refused).toBe('CONFIG_INVALID');
      expect(await markedItems()).toEqual(items);
      await open();
      await client.call('memory.forget', { owner: 'alice', ids: items });
      expect(await markedItems()).toEqual([]);
    },
  );

  it('finds a marker planted where forget does not look (the search can fail)', async () => {
    await seedMarked();
    const db = service?.driver;
    if (!db || !service) throw new Error('no service');
    await client.call('memory.forget', { owner: 'alice', ids: await markedItems(), with_events: true });
    await db.run(`INSERT INTO settings (key, value) VALUES ('planted', ?)`, [`left ${MARK} behind`]);
    if (currentEngine() === 'sqlite') {
      await service.close();
      expect(bytesHits(service.config.dataDir, [MARK])).not.toEqual([]);
      await open();
    } else expect(await markerRows(db, [MARK])).toEqual([`settings: ${MARK}`]);
  });
});
