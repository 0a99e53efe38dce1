// `mnemo mcp` on stdio, read raw: stdout holds MCP messages and nothing else, even with debug logs on
// (they go to stderr), and the process ends when its client closes stdin.
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { BIN } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

const line = (message: object) => `${JSON.stringify(message)}\n`;

it('writes only MCP messages to stdout, logs to stderr, and exits when stdin ends', async () => {
  const child = spawn(process.execPath, [BIN, 'mcp', '--owner', 'user:me'], {
    env: { ...process.env, MNEMO_HOME: temp.make(), MNEMO_LOG_LEVEL: 'debug' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listed = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('"id":2')) resolve();
    });
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const clientInfo = { name: 'raw', version: '1' };
  child.stdin.write(
    line({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo },
    }),
  );
  child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  await listed;
  child.stdin.end();
  expect(await exited).toBe(0);
  const messages = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: { tools?: unknown[] } });
  expect(messages.map((m) => [m.jsonrpc, m.id])).toEqual([
    ['2.0', 1],
    ['2.0', 2],
  ]);
  expect(messages[1]?.result.tools?.length).toBeGreaterThanOrEqual(4);
  expect(stderr).toContain('mcp serving on stdio');
});
