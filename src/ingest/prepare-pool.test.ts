import { afterEach, describe, expect, it } from 'vitest';
import { pino, type Logger } from 'pino';
import { openMemory, type MemoryService } from '../service.js';
import { createRedactor } from '../text/redact.js';
import { ingestEvents } from './ingest.js';
import { inlinePreparer, type Preparer } from './prepare.js';
import { createPreparePool, MAX_FAILED_CALLS } from './prepare-pool.js';
import { matchRefs } from '../../test/helpers/index-match.js';
import { sqlRows } from '../../test/helpers/sql.js';

const SALT = 'pool-test-salt';
const ctx = { salt: SALT, redactor: createRedactor({ salt: SALT }) };
const pools: Preparer[] = [];
const pool = (
  size: number,
  extra: { entry?: URL; minEvents?: number; minChars?: number; log?: Logger } = {},
) => {
  const p = createPreparePool(ctx, { size, redactEmails: true, fingerprintKey: SALT, ...extra });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** A call of every sort of event: English, Chinese, identifiers, secrets, meta, sessions, invalid items. */
const mixedCall = (n: number, repeat = 1): unknown[] =>
  Array.from({ length: n }, (_, i) => {
    if (i % 17 === 5) return { event_id: `bad-${i}`, kind: 'user_message', role: 'robot', at: 1, text: 'x' };
    if (i % 23 === 7) return 'not an event';
    return {
      event_id: `e${i}`,
      session_id: `s${i % 3}`,
      kind: i % 2 === 0 ? 'user_message' : 'agent_reply',
      role: i % 2 === 0 ? 'user' : 'agent',
      at: 1_780_000_000_000 + i * 1000,
      text: [
        `Turn ${i}: the invoice_2026-09.pdf for RB-2026-0917 is ready`,
        `我们周三去看了${i}号房子，厨房很大`,
        `my key is sk-proj-${'a1B2c3D4'.repeat(4)}${i}`,
        `call me at 138 1234 ${String(5000 + i)}`,
      ][i % 4]?.repeat(repeat),
      ...(i % 5 === 0 ? { meta: { note: `reach me at user${i}@example.com`, n: i } } : {}),
    };
  });

describe('prepare pool', () => {
  it('prepares exactly what the calling thread would, in input order, rejections included', async () => {
    const call = mixedCall(120);
    const inline = await inlinePreparer(ctx).prepare('o1', call);
    const pooled = await pool(2, { minEvents: 1, minChars: 0 }).prepare('o1', call);
    expect(pooled).toEqual(inline);
    expect(inline.rejected.map((r) => r.message.slice(0, 10))).toContain('events[5].');
    expect(inline.rejected.length).toBeGreaterThan(5);
    expect(inline.prepared.some((p) => p.row.redactions !== null)).toBe(true);
    // Indexes in messages count from the start of the call, not of a worker's slice.
    expect(pooled.rejected.at(-1)?.message).toMatch(/^events\[107\]\.role/);
  });

  it('prepares small calls on the calling thread and works again after a worker is lost, then gives up on workers', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const crashing = pool(2, {
      entry: new URL('../../test/helpers/failing-worker.mjs', import.meta.url),
      minChars: 0,
      log,
    });
    const call = mixedCall(80);
    const expected = await inlinePreparer(ctx).prepare('o1', call);
    // The workers die on the request; the call is prepared inline instead and nothing is lost.
    expect(await crashing.prepare('o1', call)).toEqual(expected);
    expect(await crashing.prepare('o1', call)).toEqual(expected);
    expect(lines.filter((l) => l.includes('preparing this call inline'))).toHaveLength(2);
    // A third failure in a row and the pool stops starting workers: no more failures to log.
    expect(await crashing.prepare('o1', call)).toEqual(expected);
    expect(await crashing.prepare('o1', call)).toEqual(expected);
    expect(lines.filter((l) => l.includes('preparing every call inline'))).toHaveLength(1);
    expect(lines).toHaveLength(3);
    expect(await crashing.prepare('o1', call.slice(0, 3))).toEqual(
      await inlinePreparer(ctx).prepare('o1', call.slice(0, 3)),
    );
    expect(crashing.counts()).toEqual({ pooled: 0, inline: 5 });
  });

  it('sends a call to the workers only when it holds enough events and text', async () => {
    const p = pool(2);
    await p.prepare('o1', mixedCall(10, 100)); // few events, much text
    await p.prepare('o1', mixedCall(100)); // many events, little text
    expect(p.counts()).toEqual({ pooled: 0, inline: 2 });
    await p.prepare('o1', mixedCall(64, 10));
    expect(p.counts()).toEqual({ pooled: 1, inline: 2 });
  });

  it("regression for issue 8: a too deep meta is its event's rejection in the pool, never a worker failure", async () => {
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const call = mixedCall(64, 10);
    call[3] = { ...(call[3] as object), meta: deep };
    call[9] = { ...(call[9] as object), meta: { a: JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`) } };
    const p = pool(2, { log });
    const expected = await inlinePreparer(ctx).prepare('o1', call);
    expect(expected.rejected.map((r) => r.message.slice(0, 15))).toEqual(
      expect.arrayContaining(['events[3].meta:', 'events[9].meta:']),
    );
    for (let i = 0; i <= MAX_FAILED_CALLS; i++) expect(await p.prepare('o1', call)).toEqual(expected);
    // Still pooled afterwards: no call counted as a failure, nothing logged.
    await p.prepare('o1', mixedCall(64, 10));
    expect(p.counts().pooled).toBe(1);
    expect(lines).toEqual([]);
  });

  it('prepares inline once closed', async () => {
    const p = pool(1, { minEvents: 1, minChars: 0 });
    const call = mixedCall(10);
    await p.prepare('o1', call);
    await p.close();
    expect(await p.prepare('o1', call)).toEqual(await inlinePreparer(ctx).prepare('o1', call));
  });
});

// SQLite only: the pool prepares before any store is touched; both engines store what it prepares alike.
describe('ingest through the pool', () => {
  let services: MemoryService[] = [];
  afterEach(async () => {
    await Promise.all(services.map((s) => s.close()));
    services = [];
  });

  it('stores and indexes the same events, with the same answers, as ingest on the main thread', async () => {
    const open = async (ingestWorkers: number) => {
      const service = await openMemory({
        config: { dataDir: 'unused', redactEmails: true, ingestWorkers },
        databasePath: ':memory:',
      });
      services.push(service);
      return service;
    };
    const [inline, pooled] = [await open(0), await open(2)];
    const call = mixedCall(200, 4);
    const results = [];
    for (const service of [inline, pooled]) {
      const deps = {
        driver: service.driver,
        redactor: service.redactor,
        salt: service.salt,
        preparer: service.preparer,
      };
      const first = await ingestEvents(deps, 'o1', call);
      const again = await ingestEvents(deps, 'o1', [
        ...call.slice(0, 60),
        { ...(call[0] as object), text: 'changed' },
      ]);
      const rows = await sqlRows(
        service.driver,
        `SELECT e.event_id, e.text, e.meta, e.redactions IS NOT NULL AS redacted, d.kind
           FROM events e JOIN search_docs d ON d.owner = e.owner AND d.ref = e.event_id ORDER BY e.seq`,
      );
      const hits = [
        ...(await matchRefs(service.driver, 'o1', 'rb-2026-0917')),
        ...(await matchRefs(service.driver, 'o1', '厨房')),
        ...(await matchRefs(service.driver, 'o1', 'invoice', 'context')),
      ];
      results.push({
        first: { ...first, stored: first.stored.size },
        again: { ...again, stored: again.stored.size },
        rows,
        hits,
      });
    }
    expect(results[1]).toEqual(results[0]);
    // The pooled store really prepared on its workers (the call holds enough text), the other never did.
    expect(pooled.preparer.counts().pooled).toBeGreaterThanOrEqual(1);
    expect(inline.preparer.counts()).toMatchObject({ pooled: 0, inline: 2 });
    expect(results[0]?.first.accepted).toBeGreaterThan(150);
    expect(results[0]?.again).toMatchObject({ accepted: 0, duplicates: 53 });
    expect(results[0]?.again.rejected.map((r) => r.code)).toContain('EVENT_CONFLICT');
    expect(results[0]?.hits.length).toBeGreaterThan(100);
  });
});
