// `npx tsx bench/projection.ts [--events N] [--objects N]`: what the search index rebuild and the Markdown
// projection cost, as ratios to the writes they follow: `mnemo reindex` against ingesting the same events,
// object writes with their files against the same writes without, and `projection rebuild` against writing
// the objects. Prints a Markdown table. The events come from ../shared/data (never copied).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLocalClient } from '../src/local-client.js';
import { ownerRoot, rebuildProjection } from '../src/projection/projection.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { rebuildIndex } from '../src/reindex.js';
import { openMemory } from '../src/service.js';
import { createEventSource, loadCorpus } from './corpus.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data' },
    events: { type: 'string', default: '20000' },
    objects: { type: 'string', default: '1000' },
  },
});
const EVENTS = Number(args.events);
const OBJECTS = Number(args.objects);
const OWNER = 'bench';

async function store(projection: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-bench-projection-'));
  const service = await openMemory({ config: { dataDir, redactEmails: true } });
  const client = createLocalClient(createMethodTable(service, { projection }));
  return {
    service,
    client,
    dataDir,
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

/** Objects in batches of 25: people and projects, Chinese and English names, each linked to the previous. */
async function writeObjects(client: ReturnType<typeof createLocalClient>): Promise<void> {
  for (let i = 0; i < OBJECTS; i += 25) {
    const objects = Array.from({ length: Math.min(25, OBJECTS - i) }, (_, k) => {
      const n = i + k;
      return n % 2 === 0
        ? {
            ref: `o${n}`,
            type: 'person',
            name: `联系人${n}号 王${n}`,
            body: `负责第${n}个项目的发票和报销。`,
          }
        : {
            ref: `o${n}`,
            type: 'project',
            name: `Project ${n} launch`,
            body: `Ship milestone ${n} by Friday.`,
          };
    });
    const relations = objects
      .slice(1)
      .map((o, k) => ({ from: objects[k]?.ref ?? '', to: o.ref, type: 'works_on' }));
    await client.call('memory.chain.upsert', { owner: OWNER, objects, relations, source_refs: ['ev-0'] });
  }
}

const corpus = createEventSource(loadCorpus(resolve(ROOT, args.data)));
const rows: string[] = [];

const a = await store(false);
const ingest = await time(async () => {
  for (let i = 0; i < EVENTS; i += 500) {
    await a.client.call('memory.events.ingest', {
      owner: OWNER,
      events: corpus.batch(i, Math.min(EVENTS, i + 500)),
    });
  }
});
const plain = await time(() => writeObjects(a.client));
const reindex = await time(() => rebuildIndex(a.service.driver, undefined, { recreate: true }));
rows.push(
  `| \`mnemo reindex\` of ${EVENTS.toLocaleString('en-US')} events + ${OBJECTS} objects / ingesting the events | ${(reindex / ingest).toFixed(2)} |`,
);

const b = await store(true);
await b.client.call('memory.events.ingest', { owner: OWNER, events: corpus.batch(0, 1) });
const projected = await time(() => writeObjects(b.client));
rows.push(
  `| ${OBJECTS} object writes with their files / the same writes without | ${(projected / plain).toFixed(2)} |`,
);
rmSync(ownerRoot(b.dataDir, OWNER), { recursive: true, force: true });
const deps = { driver: b.service.driver, dataDir: b.dataDir, now: Date.now };
const rebuild = await time(() => rebuildProjection(deps, OWNER));
rows.push(
  `| \`mnemo projection rebuild\` of the deleted tree / the object writes with their files | ${(rebuild / projected).toFixed(2)} |`,
);
const again = await time(() => rebuildProjection(deps, OWNER));
rows.push(
  `| the same rebuild again (every file already holds its bytes) / the first | ${(again / rebuild).toFixed(2)} |`,
);
await a.close();
await b.close();

process.stdout.write(['| measure | ratio |', '|---|---:|', ...rows, ''].join('\n'));
