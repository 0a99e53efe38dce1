// The triggers (threshold, hourly when idle, nightly in the quiet window) on a fake clock, and the notices
// of failed automatic jobs: kept until acknowledged, holding that kind's triggers off, never re-run.
import { afterEach, describe, expect, it } from 'vitest';
import type { ClaimedJob } from '../../src/organize/organize.js';
import { ENGINES } from '../helpers/engines.js';
import { errorOf } from '../helpers/errors.js';
import { sqlRows } from '../helpers/sql.js';
import { conversation, openOrganizeFixture, type OrganizeFixture } from './fixture.js';

const HOUR = 3_600_000;
const at = (local: string) => Date.parse(`${local}+08:00`);
type Tick = { queued: Array<{ job_id: string; kind: string; trigger: string; workday?: string }> };

describe.each(ENGINES)('organize triggers on %s', (engine) => {
  let f: OrganizeFixture;
  afterEach(() => f.close());
  const tick = (owner?: string) =>
    f.client.call<Tick>('memory.chain.tick', owner === undefined ? {} : { owner });
  const kinds = (t: Tick) => t.queued.map((q) => `${q.kind}/${q.trigger}`);

  it('queues a compaction once the unorganised tokens pass the threshold, once', async () => {
    f = await openOrganizeFixture(engine);
    await f.ingest('alice', conversation(60));
    expect(kinds(await tick())).toEqual([]);
    await f.ingest('alice', conversation(300, { prefix: 'x' }));
    expect(kinds(await tick())).toEqual(['compact/threshold']);
    expect(kinds(await tick())).toEqual([]);
    await f.drain();
    const status = await f.client.call<{ owners: Array<{ raw_tokens: number; ready: boolean }> }>(
      'memory.chain.status',
      { owner: 'alice' },
    );
    expect(status.owners[0]?.raw_tokens).toBeLessThanOrEqual(f.organize.options.thresholdTokens);
    expect(status.owners[0]?.ready).toBe(true);
  });

  it('organizes hourly once the owner has been idle for an hour, and disposes of the archive', async () => {
    f = await openOrganizeFixture(engine);
    await f.ingest('alice', conversation(120));
    f.clock.advance(HOUR - 1);
    expect(kinds(await tick())).toEqual([]);
    f.clock.advance(1);
    expect(kinds(await tick())).toEqual(['organize/hourly']);
    await f.drain();
    expect(await f.count('SELECT count(*) AS n FROM organize_archive WHERE disposed_at IS NULL')).toBe(0);
    expect(
      await f.count(`SELECT count(*) AS n FROM organize_archive WHERE disposition = 'archive_only'`),
    ).toBeGreaterThan(0);
    f.clock.advance(HOUR);
    expect(kinds(await tick()), 'nothing left to organize').toEqual([]);
  });

  it('reviews the previous workday nightly in the quiet window after 03:30, once, for active owners', async () => {
    f = await openOrganizeFixture(engine);
    f.clock.set(at('2026-10-01T10:00:00'));
    await f.ingest('alice', conversation(5));
    await f.ingest('bob', conversation(5, { prefix: 'b' }));
    f.clock.set(at('2026-10-02T03:29:00'));
    expect(kinds(await tick())).toEqual([]);
    f.clock.set(at('2026-10-02T03:40:00'));
    const night = await tick();
    expect(kinds(night)).toEqual(['deep/nightly', 'deep/nightly']);
    expect(night.queued.map((q) => q.workday)).toEqual(['2026-10-01', '2026-10-01']);
    f.clock.set(at('2026-10-02T04:30:00'));
    expect(kinds(await tick())).toEqual([]);
    await f.drain();
    // The next night only alice wrote something; her review waits until she has been quiet for 30 minutes.
    f.clock.set(at('2026-10-03T03:20:00'));
    await f.ingest('alice', conversation(2, { prefix: 'n' }));
    f.clock.set(at('2026-10-03T03:45:00'));
    expect(kinds(await tick())).toEqual([]);
    f.clock.set(at('2026-10-03T03:50:00'));
    expect((await tick()).queued.map((q) => `${q.workday}`)).toEqual(['2026-10-02']);
    f.clock.set(at('2026-10-04T06:10:00'));
    await f.ingest('alice', conversation(2, { prefix: 'm' }));
    f.clock.set(at('2026-10-05T07:00:00'));
    expect(kinds(await tick()), 'outside the window').toEqual([]);
  });

  it('takes its quiet window from the configuration', async () => {
    f = await openOrganizeFixture(engine, { organize: { quietWindow: { start: 4 * 60, end: 5 * 60 } } });
    f.clock.set(at('2026-10-01T10:00:00'));
    await f.ingest('alice', conversation(5));
    f.clock.set(at('2026-10-02T03:45:00'));
    expect(kinds(await f.organize.tick())).toEqual([]);
    f.clock.set(at('2026-10-02T04:05:00'));
    expect(kinds(await f.organize.tick())).toEqual(['deep/nightly']);
  });

  it('keeps a failed automatic job’s notice until it is acknowledged, and never runs that job again', async () => {
    f = await openOrganizeFixture(engine);
    await f.ingest('alice', conversation(300));
    const [queued] = (await tick()).queued;
    for (let attempt = 0; attempt < 5; attempt++) {
      f.clock.advance(600_000);
      const job = await f.client.call<ClaimedJob>('memory.organize.claim', {});
      await f.client.call('memory.organize.fail', {
        owner: 'alice',
        job_id: job.job_id,
        token: job.token,
        reason: 'the model provider answered 500',
        code: 'MODEL_ERROR',
      });
    }
    const notices = async (ack?: string) =>
      f.client.call<{
        notices: Array<{ job_id: string; failures: number; last_failures: unknown[] }>;
        acked: string | null;
      }>('memory.organize.notices', { owner: 'alice', ...(ack ? { ack } : {}) });
    const pending = await notices();
    expect(pending.notices.map((n) => [n.job_id, n.failures, n.last_failures.length])).toEqual([
      [queued?.job_id, 5, 5],
    ]);
    expect(await notices()).toEqual(pending);
    // While the notice waits, the threshold queues no new compaction; other owners and kinds go on.
    expect(kinds(await tick())).toEqual([]);
    expect((await errorOf(notices('oj_unknown'))).code).toBe('NOT_FOUND');
    expect(await notices(queued?.job_id)).toEqual({ notices: [], acked: queued?.job_id });
    // Acknowledged: the failed job stays failed; the threshold queues a new job, which compacts.
    const [fresh] = (await tick()).queued;
    expect(fresh?.job_id).not.toBe(queued?.job_id);
    await f.drain();
    const jobs = await sqlRows<{ job_id: string; state: string; notice: string | null }>(
      f.service.driver,
      'SELECT job_id, state, notice FROM organize_jobs ORDER BY seq',
    );
    expect(jobs).toEqual([
      { job_id: queued?.job_id, state: 'failed', notice: 'acked' },
      { job_id: fresh?.job_id, state: 'done', notice: null },
    ]);
  });
});
