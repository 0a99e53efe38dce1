// Issue 12: objects projected to Markdown files after their writes commit, on both engines: front matter and
// [[links]], stable names, a schedule's folder, facts coming and going, failures recorded without losing a
// write, deleted objects' files removed, and `rebuild` giving back the same bytes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalClient, type LocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import type { MemoryService } from '../service.js';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { ownerRoot, rebuildProjection, syncObjectFiles, type ProjectionDeps } from './projection.js';
import { listFiles } from './write.js';

const OWNER = 'user:李';
type Upserted = { objects: Array<{ id: string }> };
type Status = { projection?: { files: number; stale: number; last_error: { error: string } | null } };

describe.each(ENGINES)('Markdown projections on %s', (engine) => {
  let handle: TestService;
  let service: MemoryService;
  let client: LocalClient;
  let dataDir: string;
  let root: string;
  let deps: ProjectionDeps;
  let t = Date.parse('2026-11-16T10:00:00+08:00');

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mnemo-projection-'));
    handle = await openTestService(engine, { config: { dataDir }, now: () => t });
    service = handle.service;
    client = createLocalClient(createMethodTable(service, { projection: true }), { checkResults: true });
    root = ownerRoot(dataDir, OWNER);
    deps = { driver: service.driver, dataDir, now: () => t };
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const upsert = (objects: unknown[], relations: unknown[] = []) =>
    client.call<Upserted>('memory.chain.upsert', { owner: OWNER, objects, relations });
  const tree = () => new Map(listFiles(root).map((p) => [p, read(p)]));
  const coreTree = () => {
    const core = join(dataDir, 'core');
    return new Map(listFiles(core).map((p) => [p, readFileSync(join(core, p), 'utf8')]));
  };

  async function people() {
    return upsert(
      [
        { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'], body: '负责发票 / handles invoices' },
        { ref: 'p', type: 'project', name: 'Mnemo Launch', body: 'Ship v1 by Friday.' },
      ],
      [{ from: 'li', to: 'p', type: 'works_on' }],
    );
  }

  it('writes a file per object with front matter, body and [[links]], 0600', async () => {
    const { objects } = await people();
    const person = read('person/李卫东.md');
    expect(person).toBe(
      [
        '---',
        `id: "${objects[0]?.id}"`,
        'type: person',
        'name: "李卫东"',
        'revision: 1',
        'status: active',
        'aliases: ["老李"]',
        person.split('\n')[7],
        '---',
        '# 李卫东',
        '',
        'Also known as: 老李',
        '',
        '负责发票 / handles invoices',
        '',
        '## Relations',
        '',
        '- works_on → [[mnemo-launch]]',
        '',
      ].join('\n'),
    );
    expect(person).toMatch(/sources: \["[^"]+"\]/);
    expect(read('project/mnemo-launch.md')).toContain('- [[李卫东]] works_on → this');
    expect(read('project/mnemo-launch.md')).toContain('status: candidate');
    expect(statSync(join(root, 'person/李卫东.md')).mode & 0o777).toBe(0o600);
    expect(listFiles(root).some((p) => p.endsWith('.tmp'))).toBe(false);
  });

  it('keeps the file name across a rename and disambiguates a taken one by id', async () => {
    const { objects } = await people();
    const id = objects[0]?.id ?? '';
    t += 1_000;
    await upsert([{ id, type: 'person', name: 'Li Weidong', aliases: ['老李'] }]);
    expect(read('person/李卫东.md')).toContain('# Li Weidong');
    expect(read('person/李卫东.md')).toContain('revision: 2');
    const other = await upsert([{ type: 'knowledge', name: 'Mnemo launch' }]);
    const otherId = (other.objects[0]?.id ?? '').replace(/^obj_/, '').toLowerCase();
    expect(read(`knowledge/mnemo-launch-${otherId}.md`)).toContain('name: "Mnemo launch"');
  });

  it('lists current facts, and drops a revoked one', async () => {
    await people();
    t += 1_000;
    await client.call('memory.events.ingest', {
      owner: OWNER,
      events: [{ event_id: 'f1', kind: 'user_message', role: 'user', at: t, text: '老李下周去杭州出差' }],
    });
    t += 60_000;
    const batch = await client.call<{ batch_id: string; token: string; events: Array<{ event_id: string }> }>(
      'memory.observation.claim',
      { owner: OWNER },
    );
    const { receipt } = await client.call<{ receipt: { memory_ids: string[] } }>(
      'memory.observation.commit',
      {
        batch_id: batch.batch_id,
        token: batch.token,
        proposal: {
          dispositions: batch.events.map((e) =>
            e.event_id === 'f1'
              ? { event_id: 'f1', action: 'cited' }
              : { event_id: e.event_id, action: 'discarded', reason: 'a note' },
          ),
          memories: [
            {
              kind: 'fact',
              fact_kind: 'project',
              subject: '老李',
              predicate: 'travel',
              object: '杭州',
              text: '老李下周去杭州出差 / travels to Hangzhou next week',
              sources: ['f1'],
            },
          ],
        },
      },
    );
    expect(read('person/李卫东.md')).toContain(
      '## Facts\n\n- 老李下周去杭州出差 / travels to Hangzhou next week _(candidate)_',
    );
    const factId = receipt.memory_ids[0] ?? '';
    t += 1_000;
    await client.call('memory.revoke', { owner: OWNER, id: factId, reason: 'wrong person' });
    expect(read('person/李卫东.md')).not.toContain('杭州');
  });

  it('gives a schedule its folder: INDEX, requirements, preferences, lessons, state and runs', async () => {
    const ingested = await client.call<{ accepted: number; rejected: unknown[] }>('memory.events.ingest', {
      owner: OWNER,
      events: [
        {
          event_id: 'r1',
          kind: 'schedule_run',
          role: 'system',
          task_id: 'daily-report',
          at: t,
          text: '日报已生成 / report sent',
        },
        {
          event_id: 'r2',
          kind: 'schedule_run',
          role: 'system',
          task_id: 'daily-report',
          at: t + 60_000,
          text: 'Report sent, 3 items',
        },
      ],
    });
    expect(ingested.rejected).toEqual([]);
    const { objects } = await upsert([
      { type: 'schedule', name: '每日日报 Daily report', body: 'Every day at 09:00.' },
    ]);
    const id = objects[0]?.id ?? '';
    t += 1_000;
    await service.driver.run(
      'UPDATE objects SET attrs = ?, updated_at = ? WHERE owner = ? AND object_id = ?',
      [
        JSON.stringify({
          task_id: 'daily-report',
          requirements: ['中文撰写'],
          preferences: 'short',
          lessons: ['send before 9'],
        }),
        t,
        OWNER,
        id,
      ],
    );
    await syncObjectFiles(deps, OWNER, [id]);
    const dir = 'schedule/每日日报-daily-report';
    expect(listFiles(join(root, dir))).toEqual([
      'INDEX.md',
      'lessons.md',
      'preferences.md',
      'requirements.md',
      'runs/r1/summary.md',
      'runs/r2/summary.md',
      'state.json',
    ]);
    expect(read(`${dir}/INDEX.md`)).toContain('- [Requirements](requirements.md)');
    expect(read(`${dir}/requirements.md`)).toBe(
      '# Requirements: 每日日报 Daily report\n\nEvery day at 09:00.\n\n- 中文撰写\n',
    );
    expect(read(`${dir}/lessons.md`)).toContain('- send before 9');
    expect(read(`${dir}/preferences.md`)).toContain('- short');
    expect(JSON.parse(read(`${dir}/state.json`))).toMatchObject({ id, runs: ['r1', 'r2'], status: 'active' });
    expect(read(`${dir}/runs/r1/summary.md`)).toContain('日报已生成 / report sent');
    expect(read('schedule/每日日报-daily-report.md')).toContain('Folder: [[每日日报-daily-report/INDEX]]');
  });

  it('records a file failure, never loses the write, and catches up once the disk is back', async () => {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'person'), 'not a folder');
    const { objects } = await people();
    expect(objects).toHaveLength(2);
    const status = await client.call<Status>('memory.chain.status', { owner: OWNER });
    expect(status.projection).toMatchObject({ files: 1, stale: 1 });
    expect(status.projection?.last_error?.error).toMatch(/ENOTDIR|EEXIST/);
    rmSync(join(root, 'person'));
    t += 1_000;
    await client.call('memory.tick', { owner: OWNER });
    expect(read('person/李卫东.md')).toContain('# 李卫东');
    expect((await client.call<Status>('memory.chain.status', { owner: OWNER })).projection).toEqual({
      files: 2,
      stale: 0,
      last_error: null,
    });
  });

  it('deletes the files of an object that no longer exists', async () => {
    const { objects } = await people();
    const id = objects[1]?.id ?? '';
    for (const sql of [
      'DELETE FROM relation_sources WHERE owner = ? AND relation_id IN (SELECT relation_id FROM object_relations WHERE from_id = ? OR to_id = ?)',
      'DELETE FROM object_relations WHERE owner = ? AND (from_id = ? OR to_id = ?)',
      'DELETE FROM object_sources WHERE owner = ? AND object_id = ? AND object_id = ?',
      'DELETE FROM object_aliases WHERE owner = ? AND object_id = ? AND object_id = ?',
      'DELETE FROM object_revisions WHERE owner = ? AND object_id = ? AND object_id = ?',
      'DELETE FROM objects WHERE owner = ? AND object_id = ? AND object_id = ?',
    ])
      await service.driver.run(sql, [OWNER, id, id]);
    expect(await syncObjectFiles(deps, OWNER, [id, objects[0]?.id ?? ''])).toEqual({
      written: 1,
      deleted: 1,
      failed: 0,
    });
    expect(listFiles(root)).toEqual(['person/李卫东.md']);
    expect(read('person/李卫东.md')).not.toContain('works_on');
  });

  it('rebuilds every file from the database byte for byte, twice alike', async () => {
    await people();
    await upsert([{ type: 'schedule', name: 'Weekly review 周报', body: 'Fridays.' }]);
    await client.call('memory.chain.core.bootstrap', {
      owner: OWNER,
      docs: { SOUL: '你是一个细心的助手。', USER: 'The user is 李卫东.' },
    });
    const before = tree();
    const core = coreTree();
    expect(before.size).toBeGreaterThan(5);
    expect(core.size).toBe(2);
    rmSync(join(root, 'person'), { recursive: true });
    writeFileSync(join(root, 'project/mnemo-launch.md'), 'damaged');
    writeFileSync(join(root, 'stray.md'), 'not from the database');
    rmSync(join(dataDir, 'core'), { recursive: true });
    t += 3_600_000;
    const result = await rebuildProjection(deps, OWNER);
    expect(result).toMatchObject({ owners: 1, objects: 3, removed: 1, core_files: 2, failed: 0 });
    expect(tree()).toEqual(before);
    expect(coreTree()).toEqual(core);
    t += 3_600_000;
    await rebuildProjection(deps);
    expect(tree()).toEqual(before);
    expect(coreTree()).toEqual(core);
  });
});
