// `mnemo token create|list|revoke`: on the store directly, and through a running server's socket.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { startServer } from '../src/server.js';
import { TOKEN_PREFIX } from '../src/tokens/tokens.js';
import { runMain } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

const tokenIn = (text: string): string =>
  new RegExp(`${TOKEN_PREFIX}[A-Za-z0-9_-]{43}`).exec(text)?.[0] ?? '';
const idIn = (text: string): string => /tk_[0-9a-f]{12}/.exec(text)?.[0] ?? '';

describe('mnemo token, on the store directly', () => {
  const dir = temp.make();
  const cli = (...args: string[]) => runMain(['--data-dir', dir, 'token', ...args]);

  it('creates a token, prints it once with where it applies, lists and revokes it', async () => {
    const created = await cli('create', '--owners', 'team:acme/*, user:alice', '--name', 'ci agents');
    expect(created.code).toBe(0);
    const token = tokenIn(created.stdout);
    const id = idIn(created.stdout);
    expect(token).not.toBe('');
    expect(created.stdout).toContain(`created token ${id} (ci agents) for:`);
    expect(created.stdout).toContain('team:acme/* (every owner starting with "team:acme/")');
    expect(created.stdout).toContain('user:alice (exactly)');
    expect(created.stdout).toContain('only time the token is shown');

    const listed = await cli('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^${id}\\s+ci agents\\s+team:acme/\\*,user:alice\\s+\\S+Z\\s+-`, 'm'),
    );
    expect(listed.stdout).not.toContain(token);

    const revoked = await cli('revoke', id);
    expect(revoked).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`revoked token ${id} (since `),
    });
    const json = JSON.parse((await cli('list', '--json')).stdout) as Array<{
      id: string;
      revoked_at: string;
    }>;
    expect(json).toEqual([expect.objectContaining({ id, revoked_at: expect.any(String) })]);
    expect(JSON.stringify(json)).not.toContain(token);
  });

  it('refuses a pattern for every owner, an empty list and an unknown id', async () => {
    for (const owners of ['*', '', ' , ', 'team:*/x']) {
      const out = await cli('create', '--owners', owners);
      expect([owners, out.code]).toEqual([owners, 1]);
      expect(out.stderr).toContain('INVALID_PARAMS');
      expect(out.stdout).not.toContain(TOKEN_PREFIX);
    }
    const missing = await cli('revoke', 'tk_000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_FOUND');
  });
});

describe('mnemo token, through a running server', () => {
  it('creates a token the server honours at once, and revokes it for the next request', async () => {
    const dir = temp.make();
    const config = loadConfig({ dataDir: dir, http: '127.0.0.1:0', observer: 'external' }, {});
    const server = await startServer(config, silentLogger());
    try {
      const recall = async (token: string) =>
        (
          await fetch(`${server.http?.url}/rpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({
              id: 1,
              method: 'memory.recall',
              params: { owner: 'team:acme/a', query: 'x' },
            }),
          })
        ).status;
      const created = await runMain([
        '--data-dir',
        dir,
        'token',
        'create',
        '--owners',
        'team:acme/*',
        '--json',
      ]);
      const { id, token } = JSON.parse(created.stdout) as { id: string; token: string };
      expect(await recall(token)).toBe(200);
      expect((await runMain(['--data-dir', dir, 'token', 'revoke', id])).code).toBe(0);
      expect(await recall(token)).toBe(401);
    } finally {
      await server.close();
    }
  });
});
