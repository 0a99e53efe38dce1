// Issue 12: the real server keeps objects' Markdown files: written as a write through the socket answers,
// and, by its background sweep, for what another process wrote to the same store; status reports the health.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../src/connect.js';
import { createLocalClient } from '../src/local-client.js';
import { ownerRoot } from '../src/projection/projection.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { openMemory } from '../src/service.js';
import { spawnServer } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const temp = createTempDirs();
afterEach(() => temp.cleanup());
const OWNER = 'user:赵';

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('the server and the Markdown projection', () => {
  it(
    'writes a file when a write answers, and sweeps in what another process wrote',
    { timeout: 120_000 },
    async () => {
      const dir = temp.make();
      const server = await spawnServer(['--no-http', '--observer', 'external', '--organizer', 'external'], {
        MNEMO_HOME: dir,
      });
      const root = ownerRoot(dir, OWNER);
      try {
        const client = connect({ socket: server.socketPath });
        await client.call('memory.chain.upsert', {
          owner: OWNER,
          objects: [
            { type: 'person', name: '赵敏', aliases: ['Zhao Min'], body: '设计评审 / design reviews' },
          ],
        });
        expect(readFileSync(join(root, 'person/赵敏.md'), 'utf8')).toContain('aliases: ["Zhao Min"]');
        const status = await client.call('memory.chain.status', { owner: OWNER });
        expect(status.projection).toEqual({ files: 1, stale: 0, last_error: null });
        await client.close();

        // Another process on the same store, without projection of its own: the server's sweep writes it.
        const other = await openMemory({ config: { dataDir: dir, redactEmails: true } });
        await createLocalClient(createMethodTable(other)).call('memory.chain.upsert', {
          owner: OWNER,
          objects: [{ type: 'project', name: 'Design review 设计评审' }],
        });
        await other.close();
        expect(await until(() => existsSync(join(root, 'project/design-review-设计评审.md')), 30_000)).toBe(
          true,
        );
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exited).toBe(0);
    },
  );
});
