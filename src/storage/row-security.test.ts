// Row-level security, PostgreSQL's second wall behind the owner filter of every query: a connection whose
// scope is some owners sees and writes no other owner's rows, even with a query that forgets its filter.
// PostgreSQL only: SQLite has no row-level security (its one wall is the filter, tested everywhere else).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { sqlFirst, sqlRows } from '../../test/helpers/sql.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import type { Principal } from '../protocol/principal.js';
import type { Driver } from './driver.js';
import { withOwnerScope } from './scope.js';

const event = (id: string, text: string) => ({
  event_id: id,
  kind: 'task_result',
  role: 'agent',
  at: 1_780_000_000_000,
  text,
});
const count = async (db: Driver, table: string) =>
  (await sqlFirst<{ n: number }>(db, `SELECT count(*) AS n FROM ${table}`))?.n;

describe.runIf(ENGINES.includes('postgres'))('row-level security on postgres', () => {
  let handle: TestService;
  let db: Driver;
  beforeEach(async () => {
    handle = await openTestService('postgres');
    db = handle.service.driver;
    const all = createLocalClient(createMethodTable(handle.service));
    for (const owner of ['alice', 'bob', 'team:acme/x', 'team:acmex']) {
      await all.call('memory.events.ingest', { owner, events: [event(`${owner}-1`, `done for ${owner}`)] });
    }
  });
  afterEach(() => handle.close());

  it('shows a scoped connection only its owners’ rows, whatever the query forgets', async () => {
    expect(await count(db, 'events')).toBe(4);
    await withOwnerScope(['alice'], async () => {
      expect(await count(db, 'events')).toBe(1);
      expect(await sqlRows(db, 'SELECT DISTINCT owner FROM search_docs')).toEqual([{ owner: 'alice' }]);
      expect(await sqlRows(db, 'SELECT owner FROM event_owners')).toEqual([{ owner: 'alice' }]);
      expect(await sqlRows(db, 'SELECT owner FROM search_owners')).toEqual([{ owner: 'alice' }]);
    });
    await withOwnerScope(['team:acme/*'], async () => {
      expect(await sqlRows(db, 'SELECT owner FROM events')).toEqual([{ owner: 'team:acme/x' }]);
    });
    // No scope at all: nothing.
    await withOwnerScope([], async () => expect(await count(db, 'events')).toBe(0));
    // A transaction runs in the scope it started in.
    await withOwnerScope(['bob'], () =>
      db.transaction(async (tx) =>
        expect(await sqlRows(tx, 'SELECT owner FROM events')).toEqual([{ owner: 'bob' }]),
      ),
    );
  });

  it('refuses to write another owner’s rows from a scoped connection', async () => {
    const insert = (owner: string) =>
      db.run(
        `INSERT INTO events (owner, event_id, kind, role, at, text, content_hash, ingested_at)
         VALUES (?, 'x', 'note', 'user', 0, 'x', 'h', 0)`,
        [owner],
      );
    await withOwnerScope(['alice'], async () => {
      await expect(insert('bob')).rejects.toThrow(/row-level security/);
      // Another owner's rows are not there to change or delete.
      expect((await db.run(`UPDATE events SET text = 'changed' WHERE owner = 'bob'`)).changes).toBe(0);
      expect((await db.run(`DELETE FROM event_owners WHERE owner = 'bob'`)).changes).toBe(0);
      // Nor can one of its own rows be moved to another owner.
      await expect(db.run(`UPDATE events SET owner = 'bob' WHERE owner = 'alice'`)).rejects.toThrow(
        /row-level security/,
      );
      await insert('alice');
    });
    expect(await count(db, 'events')).toBe(5);
  });

  it('runs each call of the method table in its principal’s scope', async () => {
    const bob: Principal = { kind: 'scoped', name: 'bob-token', owners: ['bob'] };
    const client = createLocalClient(createMethodTable(handle.service), { principal: bob });
    // Claiming registers the owners with new events from a table of every owner, without an owner filter:
    // in bob's scope it sees, registers and cuts only bob.
    const batch = await client.call<{ batch_id: string | null; owner?: string }>('memory.observation.claim', {
      owner: 'bob',
    });
    expect(batch.owner).toBe('bob');
    expect(await sqlRows(db, 'SELECT owner FROM observation_owners')).toEqual([{ owner: 'bob' }]);
    expect(await sqlRows(db, 'SELECT DISTINCT owner FROM observation_batches')).toEqual([{ owner: 'bob' }]);
    const evidence = await client.call<{ items: unknown[]; missing: string[] }>('memory.evidence.get', {
      owner: 'bob',
      ids: ['bob-1'],
    });
    expect(evidence.items).toHaveLength(1);
  });
});
