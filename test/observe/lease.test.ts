// Issue 4: leases, tokens, idempotent commits, failures with backoff — through the public methods.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/errors.js';
import type { ClaimedBatch } from '../../src/observe/observe.js';
import { event, openFixture, T0, type ObserveFixture } from './fixture.js';
import { sqlRows } from '../helpers/sql.js';
import { ENGINES } from '../helpers/engines.js';

describe.each(ENGINES)('on %s', (engine) => {
  let f: ObserveFixture;
  beforeEach(async () => {
    f = await openFixture({ engine });
  });
  afterEach(() => f.close());

  type Claim = ClaimedBatch | { batch_id: null };
  const claim = (params: Record<string, unknown> = {}) =>
    f.client.call<Claim>('memory.observation.claim', params);

  async function claimOne(params: Record<string, unknown> = {}): Promise<ClaimedBatch> {
    const batch = await claim(params);
    if (batch.batch_id === null) throw new Error('expected a batch');
    return batch as ClaimedBatch;
  }

  const episodeOf = (batch: ClaimedBatch) => ({
    dispositions: batch.events.map((e) => ({ event_id: e.event_id, action: 'cited' })),
    memories: [
      { kind: 'episode', text: 'The user said hello twice.', sources: batch.events.map((e) => e.event_id) },
    ],
  });

  async function codeOf(call: Promise<unknown>): Promise<string> {
    try {
      await call;
    } catch (error) {
      return error instanceof MemoryError ? error.code : String(error);
    }
    return 'no error';
  }

  beforeEach(async () => {
    await f.ingest('u', [event('hello', { event_id: 'h1' }), event('hello again', { event_id: 'h2' })]);
    f.clock.advance(30_000);
  });

  describe('leases / 租约', () => {
    it('claims with a token and a 120 s lease by default, then nothing while leased', async () => {
      const batch = await claimOne();
      expect(batch).toMatchObject({
        owner: 'u',
        expires_at: new Date(T0 + 30_000 + 120_000).toISOString(),
        events: [
          { event_id: 'h1', kind: 'user_message', role: 'user', text: 'hello' },
          { event_id: 'h2', text: 'hello again' },
        ],
      });
      expect(batch.token).toMatch(/^[0-9a-f]{32}$/);
      expect(await claim()).toEqual({ batch_id: null });
    });

    it('bounds lease_ms to 1 s … 10 min', async () => {
      expect(await codeOf(claim({ lease_ms: 999 }))).toBe('INVALID_PARAMS');
      expect(await codeOf(claim({ lease_ms: 600_001 }))).toBe('INVALID_PARAMS');
      const batch = await claimOne({ lease_ms: 1_000 });
      expect(batch.expires_at).toBe(new Date(f.clock.now() + 1_000).toISOString());
    });

    it('an expired lease is claimed again and the old token gets LEASE_LOST / 过期租约可重领，旧 token 被拒', async () => {
      const old = await claimOne();
      f.clock.advance(119_999);
      expect(await claim()).toEqual({ batch_id: null });
      f.clock.advance(1);
      const again = await claimOne();
      expect(again.batch_id).toBe(old.batch_id);
      expect(again.token).not.toBe(old.token);
      const commitOld = f.client.call('memory.observation.commit', {
        batch_id: old.batch_id,
        token: old.token,
        proposal: episodeOf(old),
      });
      expect(await codeOf(commitOld)).toBe('LEASE_LOST');
      const failOld = f.client.call('memory.observation.fail', {
        batch_id: old.batch_id,
        token: old.token,
        reason: 'x',
      });
      expect(await codeOf(failOld)).toBe('LEASE_LOST');
      await f.client.call('memory.observation.commit', {
        batch_id: again.batch_id,
        token: again.token,
        proposal: episodeOf(again),
      });
      const status = await f.observation.status();
      expect(status.owners[0]).toMatchObject({ publish_seq: 1, memories: 1 });
    });

    it('a retried commit with the same token returns the first receipt and publishes nothing new / 重试提交返回原回执', async () => {
      const batch = await claimOne();
      const params = { batch_id: batch.batch_id, token: batch.token, proposal: episodeOf(batch) };
      const first = await f.client.call<{ receipt: unknown }>('memory.observation.commit', params);
      // Even with another proposal, the retry is the same commit.
      const retried = await f.client.call<{ receipt: unknown }>('memory.observation.commit', {
        ...params,
        proposal: { dispositions: [], memories: [] },
      });
      expect(retried).toEqual(first);
      expect(first.receipt).toMatchObject({ batch_id: batch.batch_id, publish_seq: 1 });
      expect(await f.count('SELECT count(*) AS n FROM memories')).toBe(1);
      expect(await f.count("SELECT count(*) AS n FROM search_docs WHERE kind = 'episode'")).toBe(1);
    });

    it('answers BATCH_NOT_FOUND for an unknown batch', async () => {
      const call = f.client.call('memory.observation.commit', {
        batch_id: 'ob_nope',
        token: 't',
        proposal: {},
      });
      expect(await codeOf(call)).toBe('BATCH_NOT_FOUND');
    });
  });

  describe('failures and backoff / 失败与退避', () => {
    it('backs off from 10 s, doubling to a 10 min cap, keeping the last five failures / 退避且保留最近五次失败', async () => {
      const delays: number[] = [];
      for (let i = 1; i <= 8; i++) {
        const batch = await claimOne();
        const out = await f.client.call<{ failures: number; next_retry_at: string }>(
          'memory.observation.fail',
          {
            batch_id: batch.batch_id,
            token: batch.token,
            reason: `model down #${i}`,
            code: 'MODEL_ERROR',
          },
        );
        expect(out.failures).toBe(i);
        const wait = Date.parse(out.next_retry_at) - f.clock.now();
        delays.push(wait);
        f.clock.advance(wait - 1);
        expect(await claim()).toEqual({ batch_id: null });
        f.clock.advance(1);
      }
      expect(delays).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000]);
      const status = await f.observation.status('u');
      expect(status.failed).toHaveLength(1);
      expect(status.failed[0]?.failures).toBe(8);
      expect(status.failed[0]?.last_failures.map((x) => x.reason)).toEqual([
        'model down #8',
        'model down #7',
        'model down #6',
        'model down #5',
        'model down #4',
      ]);
      expect(status.owners[0]?.batches).toEqual({ queued: 0, leased: 0, failed: 1, published: 0 });
      // Nothing was dropped: the batch still publishes.
      const batch = await claimOne();
      await f.observation.commit({
        batch_id: batch.batch_id,
        token: batch.token,
        proposal: episodeOf(batch),
      });
      expect((await f.observation.status('u')).failed).toEqual([]);
    });

    it('a refused proposal is a failure of the batch: PROPOSAL_INVALID with every issue, then backoff / 提案被拒即批次失败', async () => {
      const batch = await claimOne();
      const proposal = {
        dispositions: [{ event_id: 'h1', action: 'cited' }],
        memories: [{ kind: 'opinion', text: 'x', sources: ['h1', 'zz'] }],
      };
      let error: MemoryError | undefined;
      try {
        await f.client.call('memory.observation.commit', {
          batch_id: batch.batch_id,
          token: batch.token,
          proposal,
        });
      } catch (e) {
        error = e as MemoryError;
      }
      const data = error?.data as { batch_id?: string } | undefined;
      expect(data?.batch_id).toBe(batch.batch_id);
      const shown = { ...data, batch_id: '<the claimed batch>' };
      expect({ code: error?.code, message: error?.message, data: shown }).toMatchInlineSnapshot(`
      {
        "code": "PROPOSAL_INVALID",
        "data": {
          "batch_id": "<the claimed batch>",
          "issues": [
            {
              "code": "unknown_kind",
              "message": "unknown memory kind "opinion" (expected episode, fact, preference, procedure)",
              "path": "memories.0.kind",
            },
            {
              "code": "source_outside_batch",
              "message": "source zz is not an event of this batch",
              "path": "memories.0.sources.1",
            },
            {
              "code": "uncovered_event",
              "message": "event h2 is neither cited nor discarded",
              "path": "dispositions",
            },
          ],
          "next_retry_at": "2026-09-17T10:00:40.000Z",
        },
        "message": "proposal refused: 3 issue(s); the batch will be retried",
      }
    `);
      // The refused token no longer holds the lease; the batch waits for its retry.
      expect(await codeOf(f.observation.commit({ ...batch, proposal: episodeOf(batch) }))).toBe('LEASE_LOST');
      const status = await f.observation.status('u');
      expect(status.failed[0]?.last_failures[0]?.code).toBe('PROPOSAL_INVALID');
      expect(status.failed[0]?.last_failures[0]?.reason).toMatch(/unknown memory kind/);
    });

    it('an expired lease is claimable at once and is not counted as a failure', async () => {
      await claimOne();
      f.clock.advance(120_000);
      await claimOne();
      const status = await f.observation.status('u');
      expect(status.leased).toHaveLength(1);
      expect(status.leased[0]?.claims).toBe(2);
      expect(status.failed).toEqual([]);
      const noted = await sqlRows<{ code: string }>(
        f.service.driver,
        'SELECT code FROM observation_failures',
      );
      expect(noted).toEqual([{ code: 'LEASE_EXPIRED' }]);
    });
  });
});
