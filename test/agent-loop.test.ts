// examples/agent-loop.ts, run as a user would (tsx, importing mnemo-memory/client) against a real server.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/connect.js';
import { silentLogger } from '../src/log.js';
import { startServer, type RunningServer } from '../src/server.js';
import { createTempDirs } from './helpers/temp.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const temp = createTempDirs();
let server: RunningServer;

beforeAll(async () => {
  const config = loadConfig({ dataDir: temp.make(), http: false, observer: 'external' }, {});
  server = await startServer(config, silentLogger());
});
afterAll(async () => {
  await server.close();
  temp.cleanup();
});

it('asks for a packet before each step and records each step: a later step finds an earlier one, once', async () => {
  const args = [
    '--import',
    'tsx',
    'examples/agent-loop.ts',
    '--socket',
    server.socket.path,
    '--owner',
    'user:loop',
  ];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT });
  const steps = stdout
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          step: number;
          claimed: number;
          recalled: string[];
          packet: unknown;
          reply: string;
        },
    );
  expect(steps.map((s) => s.step)).toEqual([1, 2, 3]);
  expect(steps[0]).toMatchObject({ recalled: [], packet: 'nothing_found', claimed: 0 });
  // The Chinese hotel step finds the English flight request (上海 → Shanghai); its packet was delivered,
  // so the third step is not given that item again.
  expect(steps[1]?.recalled[0]).toBe('demo-1-user');
  expect(steps[2]?.recalled).not.toContain('demo-1-user');
  expect(steps[2]?.reply).toContain('window seat');
  const client = connect({ socket: server.socket.path });
  const page = await client.call('timeline.query', { owner: 'user:loop' });
  expect(page.items.map((i) => i.id)).toEqual(
    [1, 2, 3].flatMap((n) => [`demo-${n}-user`, `demo-${n}-agent`]),
  );
  await client.close();
});
