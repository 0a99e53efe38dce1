// The concurrency contract (docs/ARCHITECTURE.md "Concurrency contract"), per engine, with two stores open
// on one database as two processes would be: on one SQLite file (WAL), or on one PostgreSQL schema with a
// pool of real connections each. Many calls run at once; the outcome is checked by invariants that hold
// whatever the interleaving, never by timing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openSharedStore, type SharedStore } from '../../test/helpers/engines.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { ingestEvents } from '../ingest/ingest.js';
import { closeReadyBatches } from '../observe/claim.js';
import { scanNewEvents } from '../observe/store.js';
import {
  createObservation,
  OBSERVE_DEFAULTS,
  type ClaimedBatch,
  type Observation,
} from '../observe/observe.js';
import type { MemoryService } from '../service.js';

const T0 = Date.parse('2026-09-17T10:00:00Z');
const LEASE_MS = 10_000;

describe.each(ENGINES)('concurrency contract on %s', (engine) => {
  let t = T0;
  const now = () => t;
  let shared: SharedStore;
  let services: MemoryService[];
  let observers: Observation[];
  beforeEach(async () => {
    t = T0;
    shared = await openSharedStore(engine, 2, { now });
    services = shared.services;
    observers = services.map((s) =>
      createObservation({
        driver: s.driver,
        redactor: s.redactor,
        now,
        options: { maxEvents: 4, leaseMs: LEASE_MS },
      }),
    );
  });
  afterEach(() => shared.close());

  let n = 0;
  const event = (kind = 'user_message') => ({
    event_id: `e${++n}`,
    kind,
    role: kind === 'user_message' ? 'user' : 'system',
    at: T0 + n,
    text: `note number ${n} about the garden`,
  });
  const ingest = (service: MemoryService, owner: string, events: unknown[]) =>
    ingestEvents(
      { driver: service.driver, redactor: service.redactor, salt: service.salt, now },
      owner,
      events,
    );

  /** Cites nothing: every event of the batch discarded. */
  const discardAll = (batch: ClaimedBatch) => ({
    dispositions: batch.events.flatMap((e) =>
      (e.event_ids ?? [e.event_id]).map((id) => ({ event_id: id, action: 'discarded' })),
    ),
    memories: [],
  });
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (error: { code?: string }) => error.code ?? String(error),
    );
  /** Lets timers run (SQLite's wait for a write lock is a timer), then goes on. */
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  /** Claims and publishes until nothing is claimable, every pending event past its wait. */
  async function drain(observation: Observation) {
    t += OBSERVE_DEFAULTS.maxWaitMs + 1;
    for (let b = await observation.claim(); b; b = await observation.claim()) {
      await observation.commit({ batch_id: b.batch_id, token: b.token, proposal: discardAll(b) });
    }
  }

  /** invariant check: the events of all batches together are every event, each exactly once. */
  async function expectEveryEventOnce(db: MemoryService['driver']) {
    const events = await sqlRows<{ seq: number }>(db, 'SELECT seq FROM events ORDER BY seq');
    const items = await sqlRows<{ seq: number; n: number }>(
      db,
      'SELECT seq, count(*) AS n FROM observation_items GROUP BY seq ORDER BY seq',
    );
    expect(items.map((i) => i.seq)).toEqual(events.map((e) => e.seq));
    expect(items.filter((i) => i.n !== 1)).toEqual([]);
    const consumed = await sqlRows<{ n: number }>(db, 'SELECT count(*) AS n FROM observation_consumed');
    expect(consumed[0]?.n).toBe(events.length);
  }

  it('(a) commits one owner’s ingest calls in sequence order: the observation cursor skips no event', async () => {
    let ingesting = true;
    const calls = Array.from({ length: 24 }, (_, i) =>
      ingest(services[i % 2] as MemoryService, i % 3 === 0 ? 'bob' : 'alice', [event(), event(), event()]),
    );
    // Both observers cut, claim and publish while the calls commit.
    const observe = async (observation: Observation) => {
      while (ingesting) {
        const b = await observation.claim();
        if (b) await observation.commit({ batch_id: b.batch_id, token: b.token, proposal: discardAll(b) });
        await turn();
      }
    };
    const watching = (observers as Observation[]).map(observe);
    const outcomes = await Promise.all(calls);
    ingesting = false;
    await Promise.all(watching);
    expect(outcomes.reduce((sum, o) => sum + o.accepted, 0)).toBe(72);
    await drain(observers[0] as Observation);
    await expectEveryEventOnce(services[0]?.driver as MemoryService['driver']);
  });

  it('(b) never leases one batch to two claims at once', async () => {
    // 16 batches: four owners, four terminal events each (a terminal event closes its batch at once).
    for (const owner of ['o1', 'o2', 'o3', 'o4']) {
      await ingest(
        services[0] as MemoryService,
        owner,
        Array.from({ length: 4 }, () => event('task_result')),
      );
    }
    await services[0]?.driver.transaction((tx) => closeReadyBatches(tx, now(), OBSERVE_DEFAULTS));
    const claims = await Promise.all(Array.from({ length: 24 }, (_, i) => observers[i % 2]?.claim() ?? null));
    const got = claims.filter((c): c is ClaimedBatch => c !== null);
    expect(got).toHaveLength(16);
    expect(new Set(got.map((c) => c.batch_id)).size).toBe(16);
    const rows = await sqlRows<{ batch_id: string; claims: number; lease_token: string }>(
      services[1]?.driver as MemoryService['driver'],
      'SELECT batch_id, claims, lease_token FROM observation_batches ORDER BY batch_id',
    );
    expect(rows.map((r) => r.claims)).toEqual(rows.map(() => 1));
    const tokens = new Map(got.map((c) => [c.batch_id, c.token]));
    expect(rows.map((r) => r.lease_token)).toEqual(rows.map((r) => tokens.get(r.batch_id)));
  });

  it('(c) refuses a stale token inside the commit, and a retried commit publishes nothing new', async () => {
    for (let i = 0; i < 8; i++) await ingest(services[0] as MemoryService, `o${i}`, [event('task_result')]);
    const [a, b] = observers as [Observation, Observation];
    const leases = (await Promise.all(Array.from({ length: 8 }, () => a.claim()))).filter(
      (c): c is ClaimedBatch => c !== null,
    );
    expect(leases).toHaveLength(8);
    t += LEASE_MS + 1;
    // Every lease expired: b claims again while a commits with its old tokens.
    const raced = await Promise.all([
      Promise.all(leases.map(() => b.claim())),
      Promise.all(leases.map((l) => codeOf(a.commit({ ...l, proposal: discardAll(l) })))),
    ]);
    const reclaimed = raced[0].filter((c): c is ClaimedBatch => c !== null);
    const taken = new Set(reclaimed.map((c) => c.batch_id));
    // A stale commit is refused exactly when the batch was claimed again first; one or the other, never both.
    expect(leases.map((l, i) => [l.batch_id, raced[1][i]])).toEqual(
      leases.map((l) => [l.batch_id, taken.has(l.batch_id) ? 'LEASE_LOST' : 'ok']),
    );
    // The new holders commit twice at once, through both stores, with one token: one receipt, one publication.
    const receipts = await Promise.all(
      reclaimed.flatMap((c) =>
        observers.map((o) =>
          o.commit({
            ...c,
            proposal: {
              dispositions: c.events.map((e) => ({ event_id: e.event_id, action: 'cited' })),
              memories: [
                { kind: 'episode', text: 'A task ended.', sources: c.events.map((e) => e.event_id) },
              ],
            },
          }),
        ),
      ),
    );
    for (let i = 0; i < receipts.length; i += 2) expect(receipts[i + 1]).toEqual(receipts[i]);
    const db = services[0]?.driver as MemoryService['driver'];
    const memories = await sqlRows<{ n: number }>(db, 'SELECT count(*) AS n FROM memories');
    expect(memories[0]?.n).toBe(reclaimed.length);
    const states = await sqlRows<{ state: string; n: number }>(
      db,
      'SELECT state, count(*) AS n FROM observation_batches GROUP BY state',
    );
    expect(states).toEqual([{ state: 'published', n: 8 }]);
  });

  it('(d) never cuts the same events twice when two stores cut batches at once', async () => {
    // Two batches' worth per owner, fewer than the ready buffer: a second cut from a stale cursor would
    // find room for them again.
    for (const owner of ['alice', 'bob', 'carol']) {
      await ingest(
        services[0] as MemoryService,
        owner,
        Array.from({ length: 8 }, () => event()),
      );
    }
    // The owners are known already (no cut registers them: that would make the cuts wait on its new rows).
    await services[0]?.driver.transaction((tx) => scanNewEvents(tx));
    t += OBSERVE_DEFAULTS.maxWaitMs + 1;
    const cut = (service: MemoryService) =>
      service.driver.transaction((tx) => closeReadyBatches(tx, now(), { ...OBSERVE_DEFAULTS, maxEvents: 4 }));
    const closed = await Promise.all(
      Array.from({ length: 12 }, (_, i) => cut(services[i % 2] as MemoryService)),
    );
    expect(closed.reduce((a, b) => a + b, 0)).toBe(6);
    await drain(observers[1] as Observation);
    await expectEveryEventOnce(services[0]?.driver as MemoryService['driver']);
  });
});
