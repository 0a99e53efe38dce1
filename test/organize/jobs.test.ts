// The organize job queue: leases with tokens, idempotent receipts, expired leases claimed again, failures
// that back off with half the batch and never lose a piece, the last five failures, one lease per owner.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimedJob } from '../../src/organize/organize.js';
import { ENGINES } from '../helpers/engines.js';
import { errorOf } from '../helpers/errors.js';
import { sqlRows } from '../helpers/sql.js';
import { conversation, openOrganizeFixture, type OrganizeFixture } from './fixture.js';

type Claim = ClaimedJob | { job_id: null };
const codeOf = async (call: Promise<unknown>) => (await errorOf(call)).code;
const leased = (claim: Claim): ClaimedJob => {
  if (claim.job_id === null) throw new Error('nothing was claimable');
  return claim;
};

describe.each(ENGINES)('organize jobs on %s', (engine) => {
  let f: OrganizeFixture;
  beforeEach(async () => {
    f = await openOrganizeFixture(engine);
    await f.ingest('alice', conversation(40));
    await f.client.call('memory.organize.request', {
      owner: 'alice',
      kind: 'compact',
      keep_recent_tokens: 0,
    });
  });
  afterEach(() => f.close());

  const claim = async (params: Record<string, unknown> = {}) =>
    leased(await f.client.call<Claim>('memory.organize.claim', params));
  const commit = (job: ClaimedJob, text = 'a summary') =>
    f.client.call<{ receipt: { node_id: string; step: number } }>('memory.organize.commit', {
      owner: job.owner,
      job_id: job.job_id,
      token: job.token,
      summary: { text },
    });
  const fail = (job: ClaimedJob) =>
    f.client.call<{ state: string; batch_limit: number; failures: number; next_retry_at: string | null }>(
      'memory.organize.fail',
      {
        owner: job.owner,
        job_id: job.job_id,
        token: job.token,
        reason: 'the model timed out',
        code: 'MODEL_TIMEOUT',
      },
    );
  const ids = (job: ClaimedJob) => (job.step.type === 'compact' ? job.step.pieces.map((p) => p.id) : []);

  it('a retried commit with the same token returns the first receipt and publishes nothing new', async () => {
    const job = await claim();
    expect(job.step).toMatchObject({ type: 'compact', level: 1 });
    expect(ids(job)).toEqual(conversation(8).map((e) => e.event_id));
    const first = await commit(job);
    const again = await commit(job, 'another summary');
    expect(again).toEqual(first);
    expect(await f.count('SELECT count(*) AS n FROM memory_nodes')).toBe(1);
    expect(await f.count('SELECT count(*) AS n FROM organize_archive')).toBe(1);
    // The job goes on with the next pieces under a new token; the old one ends nothing.
    const next = await claim();
    expect(next.job_id).toBe(job.job_id);
    expect(ids(next)[0]).toBe('e00008');
    expect(await codeOf(fail(job))).toBe('LEASE_LOST');
  });

  it('an expired lease is claimed again and commits once; the old token gets LEASE_LOST', async () => {
    const job = await claim({ lease_ms: 60_000 });
    expect((await f.client.call<Claim>('memory.organize.claim', {})).job_id).toBeNull();
    f.clock.advance(60_001);
    const again = await claim();
    expect(again.job_id).toBe(job.job_id);
    expect(again.token).not.toBe(job.token);
    expect(ids(again)).toEqual(ids(job));
    expect(await codeOf(commit(job))).toBe('LEASE_LOST');
    await commit(again);
    expect(await f.count('SELECT count(*) AS n FROM memory_nodes')).toBe(1);
    const failures = await sqlRows<{ code: string }>(f.service.driver, 'SELECT code FROM organize_failures');
    expect(failures.map((r) => r.code)).toEqual(['LEASE_EXPIRED']);
  });

  it('halves its batch on failure and never drops an unprocessed piece', async () => {
    const first = await claim();
    expect(ids(first)).toHaveLength(8);
    expect(await fail(first)).toMatchObject({ state: 'queued', batch_limit: 4, failures: 1 });
    expect((await f.client.call<Claim>('memory.organize.claim', {})).job_id, 'backing off').toBeNull();
    f.clock.advance(10_000);
    const second = await claim();
    expect(ids(second)).toEqual(ids(first).slice(0, 4));
    await commit(second);
    const third = await claim();
    expect(ids(third)).toEqual(ids(first).slice(4, 8));
    await fail(third);
    f.clock.advance(20_000);
    const fourth = await claim();
    expect(ids(fourth)).toEqual(ids(first).slice(4, 6));
    await commit(fourth);
    // Everything ends up covered exactly once, in order.
    await f.drain();
    const nodes = await sqlRows<{ first_seq: number; last_seq: number }>(
      f.service.driver,
      'SELECT first_seq, last_seq FROM memory_nodes WHERE level = 1 ORDER BY first_seq',
    );
    const seqs = await sqlRows<{ seq: number }>(
      f.service.driver,
      `SELECT seq FROM events WHERE owner = 'alice' ORDER BY seq`,
    );
    const covered = nodes.flatMap((n) =>
      seqs.filter((s) => s.seq >= n.first_seq && s.seq <= n.last_seq).map((s) => s.seq),
    );
    expect(covered).toEqual(seqs.map((s) => s.seq));
  });

  it('keeps the last five failures and stops after the last attempt, requested jobs without a notice', async () => {
    let result;
    for (let attempt = 0; attempt < 5; attempt++) {
      f.clock.advance(600_000);
      result = await fail(await claim());
    }
    expect(result).toMatchObject({ state: 'failed', failures: 5, next_retry_at: null, notice: false });
    const status = await f.client.call<{
      jobs: Array<{
        state: string;
        batch_limit: number;
        last_failures: Array<{ code: string; batch_limit: number }>;
      }>;
      queue: { failed: number };
    }>('memory.chain.status', { owner: 'alice' });
    const [job] = status.jobs;
    expect(job?.state).toBe('failed');
    expect(job?.last_failures.map((x) => x.batch_limit)).toEqual([8, 4, 2, 1, 1]);
    expect(status.queue.failed).toBe(1);
    f.clock.advance(600_000);
    expect((await f.client.call<Claim>('memory.organize.claim', {})).job_id).toBeNull();
    // Nothing was dropped: the events are still raw, and a new request compacts them.
    expect(await f.count('SELECT count(*) AS n FROM memory_nodes')).toBe(0);
    await f.client.call('memory.organize.request', {
      owner: 'alice',
      kind: 'compact',
      keep_recent_tokens: 0,
    });
    expect(await f.drain()).toBeGreaterThan(0);
  });

  it('refuses a commit that does not fit its step, as a failure', async () => {
    const job = await claim();
    expect(await codeOf(commit(job, ''))).toBe('PROPOSAL_INVALID');
    expect(await codeOf(commit(job, 'x'.repeat(f.organize.options.nodeMaxChars + 1)))).toBe('LEASE_LOST');
    const [failure] = await sqlRows<{ code: string }>(f.service.driver, 'SELECT code FROM organize_failures');
    expect(failure?.code).toBe('PROPOSAL_INVALID');
  });

  it('refuses a step planned on a timeline that changed since', async () => {
    const job = await claim();
    await f.service.driver.run(`UPDATE organize_owners SET version = version + 1 WHERE owner = 'alice'`);
    expect(await codeOf(commit(job))).toBe('LEASE_LOST');
    expect(await f.count('SELECT count(*) AS n FROM memory_nodes')).toBe(0);
  });

  it('leases one job of an owner at a time, and a job to one of two concurrent claims', async () => {
    await f.client.call('memory.organize.request', { owner: 'alice', kind: 'organize' });
    await f.ingest('bob', conversation(20, { prefix: 'b' }));
    await f.client.call('memory.organize.request', { owner: 'bob', kind: 'compact', keep_recent_tokens: 0 });
    const claims = await Promise.all(
      [0, 1, 2, 3].map(() => f.client.call<Claim>('memory.organize.claim', {})),
    );
    const live = claims.filter((c): c is ClaimedJob => c.job_id !== null);
    expect(live.map((c) => c.owner).sort()).toEqual(['alice', 'bob']);
    const rows = await sqlRows<{ owner: string }>(
      f.service.driver,
      `SELECT owner FROM organize_jobs WHERE state = 'leased'`,
    );
    expect(rows.map((r) => r.owner).sort()).toEqual(['alice', 'bob']);
  });

  it('reads what a job needs: whole events, nodes with their children, older memories', async () => {
    const job = await claim();
    const { receipt } = await commit(job);
    const inspected = await f.client.call<{
      events: Array<{ event_id: string; text: string }>;
      nodes: Array<{ node_id: string; children: string[] }>;
      missing: string[];
    }>('memory.organize.inspect', {
      owner: 'alice',
      refs: ['event:e00003', `node:${receipt.node_id}`, 'event:nope'],
      memories: { limit: 5 },
    });
    expect(inspected.events.map((e) => e.event_id)).toEqual(['e00003']);
    expect(inspected.nodes[0]?.children).toEqual(ids(job).map((id) => `event:${id}`));
    expect(inspected.missing).toEqual(['event:nope']);
  });
});
