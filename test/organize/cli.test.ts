// `mnemo organize status|request|tick|notices`, on the store directly (no server running).
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/process.js';
import { createTempDirs } from '../helpers/temp.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

describe('mnemo organize, on the store directly', () => {
  const dir = temp.make();
  const cli = (...args: string[]) => runMain(['--data-dir', dir, '--owner', 'user:alice', ...args]);

  it('requests a job, shows the queue and the timeline, ticks, lists notices', async () => {
    const events = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({
        event_id: `e${i}`,
        kind: 'note',
        role: 'system',
        at: 1_790_000_000_000 + i,
        text: `第${i}条记录`,
      }),
    );
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/events.jsonl`, `${events.join('\n')}\n`);
    expect((await cli('ingest', `${dir}/events.jsonl`)).code).toBe(0);

    const requested = await cli('organize', 'request', '--kind', 'compact');
    expect(requested.code).toBe(0);
    expect(requested.stdout).toMatch(/^queued compact job oj_\S+ for user:alice \(queued\)$/m);
    expect((await cli('organize', 'request', '--kind', 'compact')).stdout).toMatch(
      /^joined the live compact job/,
    );

    const status = await cli('organize', 'status');
    expect(status.stdout).toContain('queue: 1 queued, 0 leased, 0 retrying, 0 failed, 0 notice(s)');
    expect(status.stdout).toMatch(/^user:alice: ready; \d+ raw tokens in 30 event\(s\), 0 covered/m);
    expect(status.stdout).toMatch(
      /^job oj_\S+ user:alice compact\/request queued: 0 step\(s\), batch 8, 0 failure\(s\)$/m,
    );
    const json = JSON.parse((await cli('organize', 'status', '--json')).stdout) as {
      queue: { queued: number };
    };
    expect(json.queue.queued).toBe(1);

    expect((await cli('organize', 'tick')).stdout).toBe('checked 1 owner(s); queued 0 job(s)\n');
    expect((await cli('organize', 'notices')).stdout).toBe('no failure notices for user:alice\n');
    const ack = await cli('organize', 'notices', '--ack', 'oj_nope');
    expect(ack.code).toBe(1);
    expect(ack.stderr).toContain('NOT_FOUND');
  });
});
