// Issue 4: batch selection without a model (sizes, waits, terminal kinds, budgets, splits, merges, filters).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimedBatch } from '../../src/observe/observe.js';
import { event, openFixture, type ObserveFixture } from './fixture.js';
import { sqlRows } from '../helpers/sql.js';
import { ENGINES } from '../helpers/engines.js';

describe.each(ENGINES)('on %s', (engine) => {
  let f: ObserveFixture;
  beforeEach(async () => {
    f = await openFixture({ engine });
  });
  afterEach(() => f.close());

  const discardAll = (batch: ClaimedBatch) => ({
    dispositions: batch.events.map((e) => ({
      event_id: e.event_id,
      action: 'discarded' as const,
      reason: 'test',
    })),
    memories: [],
  });

  async function claimAndDiscard(): Promise<ClaimedBatch> {
    const batch = await f.observation.claim();
    if (!batch) throw new Error('expected a batch');
    await f.observation.commit({ batch_id: batch.batch_id, token: batch.token, proposal: discardAll(batch) });
    return batch;
  }

  describe('batch selection / 选批规则', () => {
    it('closes at 20 events at once / 满 20 条立即成批', async () => {
      await f.ingest(
        'u',
        Array.from({ length: 25 }, (_, i) => event(`消息 message ${i}`)),
      );
      const batch = await f.observation.claim();
      expect(batch?.events).toHaveLength(20);
      expect(batch?.events.map((e) => e.text)[0]).toBe('消息 message 0');
      // The other five wait for more events or for 30 s.
      expect(await f.observation.claim()).toBeNull();
    });

    it('waits 30 s for the oldest event before closing a small batch / 最早事件等待 30 秒', async () => {
      await f.ingest('u', [event('one'), event('two')]);
      expect(await f.observation.claim()).toBeNull();
      f.clock.advance(29_999);
      expect(await f.observation.claim()).toBeNull();
      f.clock.advance(1);
      const batch = await f.observation.claim();
      expect(batch?.events.map((e) => e.text)).toEqual(['one', 'two']);
    });

    it('measures the wait from ingestion, not from the host timestamp / 从写入时刻计时', async () => {
      await f.ingest('u', [event('old import', { at: 0 })]);
      expect(await f.observation.claim()).toBeNull();
    });

    it.each(['task_result', 'task_failed', 'task_blocked', 'needs_input'] as const)(
      'closes at once on %s / 终态事件立即成批',
      async (kind) => {
        await f.ingest('u', [
          event('start'),
          event(`ended: ${kind}`, { kind, role: 'system' }),
          event('after'),
        ]);
        const batch = await f.observation.claim();
        expect(batch?.events.map((e) => e.kind)).toEqual(['user_message', kind]);
        expect(await f.observation.claim()).toBeNull();
      },
    );

    it('keeps a batch within 12,000 bytes / 批次不超过 12000 字节', async () => {
      // 800 CJK characters = 2,400 UTF-8 bytes each: five fill the budget, the sixth waits.
      await f.ingest(
        'u',
        Array.from({ length: 6 }, (_, i) => event(`${String(i)}${'记'.repeat(799)}`.slice(0, 800))),
      );
      const batch = await f.observation.claim();
      expect(batch?.events).toHaveLength(5);
      const bytes = batch?.events.reduce((n, e) => n + Buffer.byteLength(e.text), 0);
      expect(bytes).toBeLessThanOrEqual(12_000);
    });

    it('splits a long event across batches and keeps its tail / 长事件跨批拆分且不丢尾部', async () => {
      // 2,001 chars, 6,001 bytes: parts of ≤ 2,400 bytes, never cutting a character.
      const long = `a${'长'.repeat(2000)}`;
      await f.ingest('u', [event(long, { event_id: 'long' }), event('next one', { event_id: 'next' })]);
      const first = await claimAndDiscard();
      const second = await claimAndDiscard();
      // The tail opens the third batch, which closes by the usual rules (here: the 30 s wait).
      expect(await f.observation.claim()).toBeNull();
      f.clock.advance(30_000);
      const third = await claimAndDiscard();
      const parts = [first, second, third].map((b) => b.events[0]);
      for (const part of parts) {
        expect(part?.event_id).toBe('long');
        expect(Buffer.byteLength(part?.text ?? '')).toBeLessThanOrEqual(2_400);
      }
      expect(parts.map((p) => p?.text).join('')).toBe(long);
      expect(parts.map((p) => p?.part)).toEqual([
        { byte_start: 0, byte_end: 2_398, byte_length: 6_001 },
        { byte_start: 2_398, byte_end: 4_798, byte_length: 6_001 },
        { byte_start: 4_798, byte_end: 6_001, byte_length: 6_001 },
      ]);
      expect(third.events.map((e) => e.event_id)).toEqual(['long', 'next']);
      expect(await f.count(`SELECT count(*) AS n FROM observation_consumed WHERE event_id = 'long'`)).toBe(1);
    });

    it('marks a split event consumed only after every part is published / 全部分片发布后才算消费', async () => {
      await f.ingest('u', [event('x'.repeat(5_000), { event_id: 'big' })]);
      const first = await f.observation.claim();
      const second = await f.observation.claim();
      if (!first || !second) throw new Error('expected two batches');
      await f.observation.commit({
        batch_id: second.batch_id,
        token: second.token,
        proposal: discardAll(second),
      });
      expect(await f.count(`SELECT count(*) AS n FROM observation_consumed WHERE event_id = 'big'`)).toBe(0);
      await f.observation.commit({
        batch_id: first.batch_id,
        token: first.token,
        proposal: discardAll(first),
      });
      // 5,000 bytes need a third part: still not consumed.
      expect(await f.count(`SELECT count(*) AS n FROM observation_consumed WHERE event_id = 'big'`)).toBe(0);
      f.clock.advance(30_000);
      await claimAndDiscard();
      expect(await f.count(`SELECT count(*) AS n FROM observation_consumed WHERE event_id = 'big'`)).toBe(1);
    });

    it('merges identical texts with a count and keeps every event id / 相同文本合并计数', async () => {
      await f.ingest('u', [
        event('ping', { event_id: 'p1' }),
        event('other', { event_id: 'o1' }),
        event('ping', { event_id: 'p2' }),
        event('ping', { event_id: 'p3' }),
      ]);
      f.clock.advance(30_000);
      const batch = await claimAndDiscard();
      expect(batch.events.map((e) => [e.event_id, e.count, e.event_ids])).toEqual([
        ['p1', 3, ['p1', 'p2', 'p3']],
        ['o1', undefined, undefined],
      ]);
      expect(
        await f.count(`SELECT count(*) AS n FROM observation_consumed WHERE disposition = 'discarded'`),
      ).toBe(4);
    });

    it('filters unchanged schedule runs, marked consumed with a reason / 过滤无变化的日程运行', async () => {
      const run = (id: string, text: string) =>
        event(text, { event_id: id, kind: 'schedule_run', role: 'system', task_id: 'daily-report' });
      await f.ingest('u', [
        run('r1', 'report: 3 new invoices'),
        run('r2', 'report: 3 new invoices'),
        run('r3', 'report: 3 new invoices'),
        run('r4', 'report: 5 new invoices'),
        run('r5', 'report: 5 new invoices'),
      ]);
      f.clock.advance(30_000);
      const batch = await claimAndDiscard();
      expect(batch.events.map((e) => e.event_id)).toEqual(['r1', 'r4']);
      const filtered = await sqlRows<{
        event_id: string;
        batch_id: string | null;
        reason: string;
      }>(
        f.service.driver,
        `SELECT event_id, batch_id, reason FROM observation_consumed WHERE disposition = 'filtered' ORDER BY seq`,
      );
      expect(filtered.map((r) => r.event_id)).toEqual(['r2', 'r3', 'r5']);
      expect(filtered[0]?.reason).toMatch(/unchanged schedule run/);
      expect(await f.observation.claim()).toBeNull();
      const status = await f.observation.status('u');
      expect(status.owners[0]?.pending_events).toBe(0);
    });

    it('cuts a large backlog a few batches at a time / 积压分批切出', async () => {
      await f.ingest(
        'u',
        Array.from({ length: 200 }, (_, i) => event(`backlog ${i}`)),
      );
      await f.observation.claim();
      expect(await f.count('SELECT count(*) AS n FROM observation_batches')).toBe(4);
      expect((await f.observation.status('u')).owners[0]?.pending_events).toBe(120);
      const seen = new Set<string>();
      for (let b = await f.observation.claim(); b; b = await f.observation.claim()) {
        for (const e of b.events) seen.add(e.text);
      }
      // Nine more batches hold the other 180 events, each exactly once.
      expect(await f.count('SELECT count(*) AS n FROM observation_batches')).toBe(10);
      expect(seen.size).toBe(180);
    });

    it('never mixes owners in a batch / 批次不跨 owner', async () => {
      await f.ingest('alice', [event('a1'), event('a2')]);
      await f.ingest('bob', [event('b1')]);
      f.clock.advance(30_000);
      const first = await f.observation.claim();
      const second = await f.observation.claim();
      const byOwner = new Map([first, second].map((b) => [b?.owner, b?.events.map((e) => e.text)]));
      expect(byOwner).toEqual(
        new Map([
          ['alice', ['a1', 'a2']],
          ['bob', ['b1']],
        ]),
      );
      expect(await f.observation.claim({ owner: 'alice' })).toBeNull();
    });
  });
});
