// Per-owner embedding cursors and leases in the store, on every engine (no vectors needed here, so the
// real PostgreSQL server runs them too): what several workers and late commits must never break.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, freshPostgresUrl, openTestService, type TestService } from '../../test/helpers/engines.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { indexDocuments, type IndexDoc } from '../search/search.js';
import type { Driver } from '../storage/driver.js';
import { loadMigrations, migrate, migrationsDir } from '../storage/migrate.js';
import { openPostgres } from '../storage/postgres.js';
import { openSqlite } from '../storage/sqlite.js';
import {
  advanceOwner,
  claimOwners,
  countPending,
  pendingDocs,
  pendingOwners,
  resetVectors,
} from './store.js';

const doc = (owner: string, ref: string): IndexDoc => ({
  owner,
  kind: 'event',
  ref,
  at: 1_000,
  sessionId: null,
  taskId: null,
  body: ['note', ref],
});

describe.each(ENGINES)('on %s', (engine) => {
  let handle: TestService;
  let driver: Driver;
  beforeEach(async () => {
    handle = await openTestService(engine);
    driver = handle.service.driver;
    await driver.transaction((tx) => resetVectors(tx, 'concepts', undefined, 0));
  });
  afterEach(() => handle.close());

  const write = (...docs: IndexDoc[]) => driver.transaction((tx) => indexDocuments(tx, docs));
  const lease = (token: string, now: number) => ({ token, until: now + 1_000, now });

  it('finds each owner with documents after its own cursor, the furthest behind first', async () => {
    await write(doc('alice', 'a1'), doc('alice', 'a2'), doc('bob', 'b1'));
    const [alice, bob] = await pendingOwners(driver, 0, 10);
    expect([alice?.owner, alice?.cursor, bob?.owner, bob?.cursor]).toEqual(['alice', 0, 'bob', 0]);
    const aliceDocs = await pendingDocs(driver, 'alice', 0, 10);
    expect(aliceDocs.map((d) => d.ref)).toEqual(['a1', 'a2']);
    if (!alice) throw new Error('alice not pending');
    expect(await driver.transaction((tx) => claimOwners(tx, [alice], lease('t1', 0)))).toEqual([alice]);
    const to = aliceDocs.at(-1)?.docId ?? 0;
    expect(await driver.transaction((tx) => advanceOwner(tx, { owner: 'alice', token: 't1', from: 0, to, vectors: 2 }))).toBe(true); // prettier-ignore
    expect((await pendingOwners(driver, 0, 10)).map((o) => o.owner)).toEqual(['bob']);
    expect(await countPending(driver)).toBe(1);
    await write(doc('alice', 'a3'));
    // bob (cursor 0) is further behind than alice (cursor past a2).
    expect((await pendingOwners(driver, 0, 10)).map((o) => o.owner)).toEqual(['bob', 'alice']);
    expect(await countPending(driver)).toBe(2);
  });

  it('leases an owner to one token until the lease runs out; a lost lease writes nothing', async () => {
    await write(doc('alice', 'a1'));
    const [alice] = await pendingOwners(driver, 0, 10);
    if (!alice) throw new Error('alice not pending');
    const claim = (token: string, now: number) =>
      driver.transaction((tx) => claimOwners(tx, [alice], lease(token, now)));
    expect(await claim('t1', 0)).toEqual([alice]);
    // Leased: not offered to other workers, and not claimable by them.
    expect(await pendingOwners(driver, 999, 10)).toEqual([]);
    expect(await claim('t2', 999)).toEqual([]);
    // t1 seems dead: its lease ran out, t2 takes the owner.
    expect(await pendingOwners(driver, 1_000, 10)).toEqual([alice]);
    expect(await claim('t2', 1_000)).toEqual([alice]);
    const move = { owner: 'alice', from: 0, to: alice.lastDoc, vectors: 1 };
    // A commit re-checks its lease (fencing): t1 answering late writes nothing.
    expect(await driver.transaction((tx) => advanceOwner(tx, { ...move, token: 't1' }))).toBe(false);
    expect(await driver.transaction((tx) => advanceOwner(tx, { ...move, token: 't2' }))).toBe(true);
    expect(await pendingOwners(driver, 5_000, 10)).toEqual([]);
    expect(await countPending(driver)).toBe(0);
  });

  it.runIf(engine === 'postgres')(
    'regression for issue 9: a document another owner committed late is not skipped',
    async () => {
      // Alice's writer takes its doc id, then commits after Bob's, whose id is higher: a cursor over all
      // owners at Bob's document would have passed Alice's for ever.
      let commit!: () => void;
      const gate = new Promise<void>((resolve) => (commit = resolve));
      let written!: () => void;
      const inside = new Promise<void>((resolve) => (written = resolve));
      const late = driver.transaction(async (tx) => {
        await indexDocuments(tx, [doc('alice', 'a1')]);
        written();
        await gate;
      });
      await inside;
      await write(doc('bob', 'b1'));
      const [bob, ...others] = await pendingOwners(driver, 0, 10);
      expect([bob?.owner, others]).toEqual(['bob', []]);
      if (!bob) throw new Error('bob not pending');
      await driver.transaction((tx) => claimOwners(tx, [bob], lease('t1', 0)));
      const move = { owner: 'bob', token: 't1', from: 0, to: bob.lastDoc, vectors: 1 };
      expect(await driver.transaction((tx) => advanceOwner(tx, move))).toBe(true);
      commit();
      await late;
      const [alice] = await pendingOwners(driver, 0, 10);
      expect(alice).toMatchObject({ owner: 'alice', cursor: 0 });
      expect(alice?.lastDoc).toBeLessThan(bob.lastDoc);
      expect((await pendingDocs(driver, 'alice', 0, 10)).map((d) => d.ref)).toEqual(['a1']);
    },
  );

  it.runIf(engine === 'postgres')('gives an owner to one of two processes claiming it at once', async () => {
    await write(doc('alice', 'a1'), doc('bob', 'b1'));
    const candidates = await pendingOwners(driver, 0, 10);
    if (!handle.url) throw new Error('no store url');
    const other = await openPostgres({ url: handle.url, poolSize: 2 });
    try {
      const [one, two] = await Promise.all(
        [driver, other].map((d, i) => d.transaction((tx) => claimOwners(tx, candidates, lease(`t${i}`, 0)))),
      );
      // Each owner went to exactly one of them.
      const owners = [...(one ?? []), ...(two ?? [])].map((o) => o.owner).sort();
      expect(owners).toEqual(['alice', 'bob']);
    } finally {
      await other.close();
    }
  });
});

describe.each(ENGINES)('migration 0007 on %s', (engine) => {
  it("starts every owner at the cursor that ran over all owners, and records owners' last documents", async () => {
    const store = engine === 'postgres' ? await freshPostgresUrl() : undefined;
    const driver = store ? await openPostgres({ url: store.url }) : openSqlite({ path: ':memory:' });
    try {
      const all = loadMigrations(migrationsDir(driver.dialect));
      await migrate(
        driver,
        all.filter((m) => m.version < 7),
      );
      // Documents 1 (alice), 2 (bob), 3 (alice); the global cursor had reached 2.
      for (const [id, owner] of [
        [1, 'alice'],
        [2, 'bob'],
        [3, 'alice'],
      ] as const) {
        await driver.run(
          `INSERT INTO search_docs (doc_id, owner, kind, ref, at, tok_version, len, ord)
           VALUES (?, ?, 'event', ?, 0, 1, 1, ?)`,
          [id, owner, `e${id}`, id],
        );
      }
      await driver.run(
        `INSERT INTO search_owners (owner, owner_key, docs, tokens, last_ord) VALUES ('alice', 1, 2, 2, 3), ('bob', 2, 1, 1, 2)`,
      );
      await driver.run(
        `INSERT INTO embedding_state (id, model, dimensions, last_doc_id, updated_at) VALUES (1, 'concepts', 32, 2, 0)`,
      );
      await driver.run(`INSERT INTO embedding_owners (owner, vectors) VALUES ('alice', 1), ('bob', 1)`);
      await migrate(driver, all);
      expect(
        await sqlRows(
          driver,
          'SELECT owner, last_doc_id, vectors, lease_token FROM embedding_owners ORDER BY owner',
        ),
      ).toEqual([
        { owner: 'alice', last_doc_id: 2, vectors: 1, lease_token: null },
        { owner: 'bob', last_doc_id: 2, vectors: 1, lease_token: null },
      ]);
      expect(await sqlRows(driver, 'SELECT owner, last_doc FROM search_owners ORDER BY owner')).toEqual([
        { owner: 'alice', last_doc: 3 },
        { owner: 'bob', last_doc: 2 },
      ]);
      expect((await pendingOwners(driver, 0, 10)).map((o) => [o.owner, o.cursor])).toEqual([['alice', 2]]);
      expect(await countPending(driver)).toBe(1);
    } finally {
      await driver.close();
      await store?.drop();
    }
  });
});
