import { afterEach, describe, expect, it } from 'vitest';
import { createTempDirs } from '../test/helpers/temp.js';
import { createLocalClient } from './local-client.js';
import { createMethodTable } from './protocol/methods.js';
import { rebuildIndex, rebuildPending } from './reindex.js';
import { openMemory, type MemoryService } from './service.js';
import { loadMigrations, migrate, migrationsDir } from './storage/migrate.js';
import { openPostgres } from './storage/postgres.js';
import { openSqlite } from './storage/sqlite.js';
import type { Config } from './config.js';
import { ENGINES, engineConfig, type Engine } from '../test/helpers/engines.js';
import { createHeuristicObserver } from './observe/heuristic.js';
import { createObservation } from './observe/observe.js';
import { sqlFirst, sqlRows } from '../test/helpers/sql.js';

const temp = createTempDirs();
const services: MemoryService[] = [];
const stores: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(stores.splice(0).map((drop) => drop()));
  temp.cleanup();
});

/** A fresh store of the engine (dropped after the test); SQLite's is the file in the data directory. */
async function storeFor(engine: Engine): Promise<Partial<Config>> {
  const store = await engineConfig(engine);
  stores.push(store.drop);
  return store.config;
}

const T0 = Date.parse('2026-09-17T10:00:00Z');
const EVENTS = [
  ['e1', 's1', 'user', '记住：我对花生过敏，订餐时避开花生'],
  ['e2', 's1', 'agent', 'Noted: no peanuts in any order.'],
  ['e3', 's2', 'user', 'Book the Lisbon hotel HX-77812 for Tuesday'],
  ['e4', 's2', 'agent', 'Booked the Lisbon hotel, confirmation HX-77812.'],
  ['e5', 's2', 'user', 'remember that I prefer aisle seats on flights'],
].map(([id, session, role, text], i) => ({
  event_id: id as string,
  session_id: session as string,
  kind: role === 'user' ? 'user_message' : 'agent_reply',
  role: role as string,
  at: T0 + i * 60_000,
  text: text as string,
}));
const QUERIES = ['花生过敏', 'Lisbon hotel', 'HX-77812', 'aisle seats', 'peanuts order'];

async function open(dir: string, store: Partial<Config>) {
  const service = await openMemory({
    config: { dataDir: dir, redactEmails: true, ...store },
    now: () => T0,
  });
  services.push(service);
  return { service, client: createLocalClient(createMethodTable(service)) };
}

const answers = async (client: ReturnType<typeof createLocalClient>) =>
  Promise.all(
    QUERIES.map(async (query) => {
      const r = await client.call<{ items: Array<{ id: string; score: number }> }>('memory.recall', {
        owner: 'me',
        query,
        // PostgreSQL under load: the default 75 ms budget may answer pending.
        wait_ms: 60_000,
      });
      return r.items.map((i) => [i.id, i.score]);
    }),
  );

describe.each(ENGINES)('rebuildIndex on %s', (engine) => {
  it('rebuilds an emptied index to give the same answers for events and memories', async () => {
    const { service, client } = await open(temp.make(), await storeFor(engine));
    await client.call('memory.events.ingest', { owner: 'me', events: EVENTS });
    const observation = createObservation({
      driver: service.driver,
      redactor: service.redactor,
      now: () => T0 + 3_600_000,
    });
    const observer = createHeuristicObserver();
    for (let batch = await observation.claim(); batch; batch = await observation.claim()) {
      const { proposal } = await observer.propose(batch, new AbortController().signal);
      await observation.commit({ batch_id: batch.batch_id, token: batch.token, proposal });
    }
    const memories = await sqlFirst<{ n: number }>(service.driver, 'SELECT count(*) AS n FROM memories');
    expect(memories?.n).toBeGreaterThan(0);
    const before = await answers(client);
    await service.driver.transaction(async (tx) => {
      await tx.run(
        engine === 'sqlite'
          ? `INSERT INTO search_fts (search_fts) VALUES ('delete-all')`
          : 'DELETE FROM search_terms',
      );
    });
    expect((await answers(client)).flat()).toEqual([]);
    const progress: number[] = [];
    const done = await rebuildIndex(service.driver, (p) => progress.push(p.done));
    expect(done.done).toBe(done.total);
    expect(progress.at(-1)).toBe(done.total);
    expect(await answers(client)).toEqual(before);
  });

  it('rebuilds one owner’s index and leaves the others’ as they are', async () => {
    const { service, client } = await open(temp.make(), await storeFor(engine));
    await client.call('memory.events.ingest', { owner: 'me', events: EVENTS });
    await client.call('memory.events.ingest', {
      owner: 'other',
      events: EVENTS.map((e) => ({ ...e, text: `${e.text} 另一个人` })),
    });
    const ask = async (owner: string) => {
      const out = [];
      for (const query of QUERIES) {
        const r = await client.call<{ items: Array<{ id: string; score: number }> }>('memory.recall', {
          owner,
          query,
          wait_ms: 60_000,
        });
        out.push(r.items.map((i) => [i.id, i.score]));
      }
      return out;
    };
    const mine = await ask('me');
    const theirs = await ask('other');
    expect(mine.every((ids) => ids.length > 0)).toBe(true);
    const other = await sqlFirst<{ key: number }>(
      service.driver,
      `SELECT owner_key AS key FROM search_owners WHERE owner = 'other'`,
    );
    await service.driver.transaction(async (tx) => {
      await tx.run(
        engine === 'sqlite'
          ? `DELETE FROM search_fts WHERE rowid IN (SELECT doc_id FROM search_docs WHERE owner = 'me')`
          : `DELETE FROM search_terms WHERE doc_id IN (SELECT doc_id FROM search_docs WHERE owner = 'me')`,
      );
    });
    expect((await ask('me')).flat()).toEqual([]);
    const done = await rebuildIndex(service.driver, undefined, { owner: 'me' });
    expect(done).toEqual({ done: EVENTS.length, total: EVENTS.length });
    expect(await ask('me')).toEqual(mine);
    expect(await ask('other')).toEqual(theirs);
    expect(
      await sqlFirst(service.driver, `SELECT owner_key AS key FROM search_owners WHERE owner = 'other'`),
    ).toEqual(other);
  });

  it('rebuilds the index of a store written before owner-keyed terms when it opens', async () => {
    const dir = temp.make();
    const store = await storeFor(engine);
    const old = store.database
      ? await openPostgres({ url: store.database.url })
      : openSqlite({ path: `${dir}/mnemo.sqlite3` });
    await migrate(
      old,
      loadMigrations(migrationsDir(old.dialect)).filter((m) => m.version <= 3),
    );
    for (const [i, e] of EVENTS.entries()) {
      await old.run(
        `INSERT INTO events (owner, event_id, session_id, kind, role, at, text, content_hash, ingested_at)
         VALUES ('me', ?, ?, ?, ?, ?, ?, ?, ?)`,
        [e.event_id, e.session_id, e.kind, e.role, e.at, e.text, `h${i}`, T0],
      );
      await old.run(
        `INSERT INTO search_docs (owner, kind, ref, at, session_id, role, tok_version) VALUES ('me', 'event', ?, ?, ?, ?, 2)`,
        [e.event_id, e.at, e.session_id, e.role],
      );
    }
    await old.close();
    const { service, client } = await open(dir, store);
    expect(await rebuildPending(service.driver)).toBe(false);
    const r = await client.call<{ items: Array<{ id: string }> }>('memory.recall', {
      owner: 'me',
      query: 'HX-77812 Lisbon',
      wait_ms: 60_000,
    });
    expect(
      r.items
        .map((i) => i.id)
        .slice(0, 2)
        .sort(),
    ).toEqual(['e3', 'e4']);
    const owners = await sqlRows(service.driver, 'SELECT owner, docs FROM search_owners');
    expect(owners).toEqual([{ owner: 'me', docs: EVENTS.length }]);
  });
});
