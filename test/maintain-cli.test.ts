// Issue 12: the real `mnemo` binary on both engines: `inspect` prints read-only tables that fit 100 columns
// (CJK counted as two) or JSON lines; `reindex` rebuilds a deleted index from the database with progress on
// stderr and recall answers as before; `projection rebuild` gives back the files byte for byte.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textWidth } from '../src/cli/text-width.js';
import { createLocalClient } from '../src/local-client.js';
import { ownerRoot } from '../src/projection/projection.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { openMemory } from '../src/service.js';
import { listFiles } from '../src/projection/write.js';
import { ENGINES, engineConfig } from './helpers/engines.js';
import { runCli } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const temp = createTempDirs();
const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(drops.splice(0).map((d) => d()));
  temp.cleanup();
});

const T0 = Date.parse('2026-11-16T10:00:00+08:00');
const OWNER = 'user:王';
const EVENTS = Array.from({ length: 24 }, (_, i) => ({
  event_id: `e${i}`,
  session_id: 's1',
  kind: i % 2 === 0 ? 'user_message' : 'agent_reply',
  role: i % 2 === 0 ? 'user' : 'agent',
  at: T0 + i * 60_000,
  text:
    i % 3 === 0
      ? `第${i}条：请把杭州出差的发票 RB-${1000 + i} 整理好，周五前交给财务部门的李卫东。`
      : `Turn ${i}: booked the Lisbon hotel HX-${7000 + i} and the 15:00 meeting room.`,
}));
const QUERIES = ['杭州出差发票', 'Lisbon hotel', 'HX-7004', '李卫东'];

describe.each(ENGINES)('maintenance commands on %s', (engine) => {
  async function seed() {
    const dataDir = temp.make();
    const store = await engineConfig(engine);
    drops.push(store.drop);
    const env = {
      MNEMO_HOME: dataDir,
      MNEMO_SOCKET: join(dataDir, 'none.sock'),
      ...(store.config.database ? { MNEMO_DATABASE_URL: store.config.database.url } : {}),
    };
    const service = await openMemory({
      config: { dataDir, redactEmails: true, ...store.config },
      now: () => T0,
    });
    const client = createLocalClient(createMethodTable(service, { projection: true }));
    await client.call('memory.events.ingest', { owner: OWNER, events: EVENTS });
    await client.call('memory.chain.upsert', {
      owner: OWNER,
      objects: [
        { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'], body: '财务部门 / finance' },
        { ref: 't', type: 'task', name: '杭州出差报销 Hangzhou trip expenses '.repeat(3).trim() },
      ],
      relations: [{ from: 'li', to: 't', type: 'owns' }],
      source_refs: ['e0'],
    });
    await client.call('memory.organize.request', { owner: OWNER, kind: 'compact' });
    await service.close();
    return { dataDir, env };
  }

  /** The store as the CLI opens it, in this process. */
  const open = (dataDir: string, env: NodeJS.ProcessEnv) =>
    openMemory({
      config: {
        dataDir,
        redactEmails: true,
        ...(env.MNEMO_DATABASE_URL
          ? {
              database: {
                url: env.MNEMO_DATABASE_URL,
                poolSize: 2,
                statementTimeoutMs: 30_000,
                ssl: 'disable' as const,
              },
            }
          : {}),
      },
    });

  /** Each query's ids and scores, in rank order. */
  const recall = async (dataDir: string, env: NodeJS.ProcessEnv) => {
    const service = await open(dataDir, env);
    try {
      const client = createLocalClient(createMethodTable(service));
      const out = [];
      for (const query of QUERIES) {
        const r = await client.call<{
          items: Array<{ id: string; score: number; channels: { bm25?: number } }>;
        }>('memory.recall', { owner: OWNER, query, wait_ms: 60_000 });
        out.push(r.items.map((item) => [item.id, item.score, item.channels.bm25 ?? null]));
      }
      return out;
    } finally {
      await service.close();
    }
  };

  it(
    'inspects objects, events, nodes and jobs as tables of 100 columns or JSON lines',
    { timeout: 120_000 },
    async () => {
      const { env } = await seed();
      const objects = await runCli(['inspect', 'objects'], { env });
      expect(objects.code, objects.stderr).toBe(0);
      const lines = objects.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ID\s+OWNER\s+TYPE\s+STATUS\s+REV\s+UPDATED\s+NAME$/);
      expect(lines).toHaveLength(3);
      for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(100);
      expect(objects.stdout).toContain('李卫东');
      const events = await runCli(['--owner', OWNER, 'inspect', 'events', '--limit', '5'], { env });
      const eventLines = events.stdout.trimEnd().split('\n');
      expect(eventLines).toHaveLength(6);
      for (const line of eventLines) expect(textWidth(line)).toBeLessThanOrEqual(100);
      expect(eventLines.some((l) => l.includes('…'))).toBe(true);
      const json = await runCli(['inspect', 'jobs', '--json'], { env });
      const jobs = json.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(jobs).toMatchObject([{ owner: OWNER, kind: 'compact', trigger: 'request', state: 'queued' }]);
      expect((await runCli(['--owner', 'nobody', 'inspect', 'nodes'], { env })).stdout).toBe('no nodes\n');
      const bad = await runCli(['inspect', 'people'], { env });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/Allowed choices are objects, events, nodes, jobs/);
    },
  );

  it(
    'reindexes a deleted index from the database with progress, and recall ranks as before',
    { timeout: 120_000 },
    async () => {
      const { dataDir, env } = await seed();
      const before = await recall(dataDir, env);
      expect(before.every((ids) => ids.length > 0)).toBe(true);
      const service = await open(dataDir, env);
      await service.driver.exec(
        engine === 'sqlite'
          ? 'DROP TABLE search_postings; DROP TABLE search_fts'
          : 'DELETE FROM search_terms',
      );
      await service.close();
      // Without its index no text match is found (the alias and graph channels read objects, not the index).
      const broken = await recall(dataDir, env).then(
        (answers) => answers.flat().filter(([, , bm25]) => bm25 !== null).length,
        () => 'failed',
      );
      expect([0, 'failed']).toContain(broken);
      const reindex = await runCli(['reindex'], { env });
      expect(reindex.code, reindex.stderr).toBe(0);
      expect(reindex.stdout).toMatch(/^reindexed \d+ document\(s\) of every owner in \d+ ms\n$/);
      const steps = reindex.stderr.trimEnd().split('\n');
      expect(steps[0]).toMatch(/^reindex: 0% \(0\/\d+ documents\)$/);
      expect(steps.at(-1)).toMatch(/^reindex: 100% \((\d+)\/\1 documents\)$/);
      expect(await recall(dataDir, env)).toEqual(before);
      const one = await runCli(['--owner', OWNER, 'reindex'], { env });
      expect(one.stdout).toContain(`of ${OWNER}`);
      expect(await recall(dataDir, env)).toEqual(before);
    },
  );

  it('rebuilds the Markdown files byte for byte', { timeout: 120_000 }, async () => {
    const { dataDir, env } = await seed();
    const root = ownerRoot(dataDir, OWNER);
    const snapshot = () => new Map(listFiles(root).map((p) => [p, readFileSync(join(root, p), 'utf8')]));
    const before = snapshot();
    expect([...before.keys()]).toEqual(['person/李卫东.md', expect.stringMatching(/^task\/杭州出差报销-/)]);
    rmSync(join(root, 'person'), { recursive: true });
    writeFileSync(join(root, [...before.keys()][1] ?? ''), 'damaged');
    const r = await runCli(['projection', 'rebuild', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ owners: 1, objects: 2, files: 2, failed: 0 });
    expect(snapshot()).toEqual(before);
  });
});
