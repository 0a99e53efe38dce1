// Regression for issue 9: tokens live in the database, so every server sharing it refuses a revoked token
// on its very next request: two servers on one PostgreSQL store (and two on one SQLite file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSocketClient, type MnemoClient } from '../src/client.js';
import { loadConfig, type Config } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { startServer, type RunningServer } from '../src/server.js';
import { engineConfig, ENGINES, type Engine } from './helpers/engines.js';
import { createTempDirs } from './helpers/temp.js';

const OWNER = 'team:acme/a';
const PG_SKIP = 'skipped: MNEMO_TEST_POSTGRES_URL is not set, so no PostgreSQL server to share';

/** Two servers on one store: on PostgreSQL each with its own data directory, on SQLite one file. */
async function twoServers(engine: Engine, temp: ReturnType<typeof createTempDirs>) {
  const store = await engineConfig(engine);
  const shared = temp.make();
  const configs: Config[] = [0, 1].map((i) => {
    const dataDir = engine === 'sqlite' ? shared : temp.make();
    const base = loadConfig(
      { dataDir, socketPath: `${dataDir}/s${i}.sock`, http: '127.0.0.1:0', observer: 'external' },
      {},
    );
    return { ...base, ...store.config };
  });
  const servers: RunningServer[] = [];
  for (const config of configs) servers.push(await startServer(config, silentLogger()));
  return { servers, drop: store.drop };
}

const STORES = [
  ['postgres', 'two servers on one PostgreSQL store'],
  ['sqlite', 'two servers on one SQLite file'],
] as const;

for (const [engine, title] of STORES) {
  const skip = !ENGINES.includes(engine);
  describe(skip ? `${title} (${PG_SKIP})` : title, () => {
    const temp = createTempDirs();
    let servers: RunningServer[] = [];
    let drop = async () => {};
    let adminA: MnemoClient;
    let adminB: MnemoClient;

    beforeAll(async () => {
      if (skip) return;
      ({ servers, drop } = await twoServers(engine, temp));
      adminA = createSocketClient(servers[0]?.socket.path ?? '');
      adminB = createSocketClient(servers[1]?.socket.path ?? '');
    });
    afterAll(async () => {
      if (skip) return;
      await adminA.close();
      await adminB.close();
      for (const server of servers) await server.close();
      await drop();
      temp.cleanup();
    });

    const recallOver = async (server: RunningServer | undefined, token: string) => {
      const response = await fetch(`${server?.http?.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ id: 1, method: 'memory.recall', params: { owner: OWNER, query: 'x' } }),
      });
      const body = (await response.json()) as { ok: boolean; error?: { code: string } };
      return [response.status, body.ok ? 'ok' : body.error?.code];
    };

    it.skipIf(skip)(
      'a token revoked through one server is refused by the other on its next request',
      async () => {
        const [a, b] = servers;
        const created = await adminA.call<{ id: string; token: string }>('tokens.create', {
          owners: ['team:acme/*'],
        });
        expect(await recallOver(b, created.token)).toEqual([200, 'ok']);
        expect(await recallOver(a, created.token)).toEqual([200, 'ok']);
        const listed = await adminB.call<{ tokens: Array<{ id: string }> }>('tokens.list', {});
        expect(listed.tokens.map((t) => t.id)).toEqual([created.id]);

        await adminA.call('tokens.revoke', { id: created.id });
        expect(await recallOver(b, created.token)).toEqual([401, 'UNAUTHORIZED']);
        expect(await recallOver(a, created.token)).toEqual([401, 'UNAUTHORIZED']);

        // And the other way round: created on B, revoked on B, refused by A at once.
        const second = await adminB.call<{ id: string; token: string }>('tokens.create', { owners: [OWNER] });
        expect(await recallOver(a, second.token)).toEqual([200, 'ok']);
        await adminB.call('tokens.revoke', { id: second.id });
        expect(await recallOver(a, second.token)).toEqual([401, 'UNAUTHORIZED']);
      },
    );
  });
}
