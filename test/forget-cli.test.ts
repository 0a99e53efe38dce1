// `mnemo forget`: deletes for real without asking, prints the counts; an id already forgotten is NOT_FOUND.
import { afterAll, expect, it } from 'vitest';
import { createLocalClient } from '../src/local-client.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { openMemory } from '../src/service.js';
import { runMain } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

it('forgets a track entry with its event, then answers NOT_FOUND for it', async () => {
  const dir = temp.make();
  const service = await openMemory({ config: { dataDir: dir, redactEmails: true } });
  const client = createLocalClient(createMethodTable(service));
  const entry = await client.call<{ id: string }>('memory.track.add', {
    owner: 'user:cli',
    track: 'memory',
    text: '保险柜密码写在红色本子里 red notebook',
  });
  const { objects } = await client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
    owner: 'user:cli',
    objects: [{ type: 'asset', name: '红色本子', aliases: ['red notebook'] }],
  });
  await service.close();
  const flags = ['--data-dir', dir, '--owner', 'user:cli'];
  const first = await runMain([...flags, 'forget', entry.id, objects[0]?.id ?? '', '--with-events']);
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/^forgot 1 memories, 1 objects, 2 events, 0 relations/);
  expect(first.stdout).toContain(`  ${entry.id}\n`);
  const again = await runMain([...flags, 'forget', entry.id, '--json']);
  expect(again.code).not.toBe(0);
  expect(again.stderr).toMatch(/NOT_FOUND/);
  const recall = await runMain([...flags, 'recall', '红色本子', '--json']);
  expect(JSON.parse(recall.stdout)).toMatchObject({ items: [] });
});
