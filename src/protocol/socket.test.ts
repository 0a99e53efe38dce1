import { link, lstat, rename, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createGates,
  createTestTable,
  openLineConnection,
  type Gates,
} from '../../test/helpers/transport-fixtures.js';
import { createTempDirs } from '../../test/helpers/temp.js';
import { isMemoryError } from '../errors.js';
import { silentLogger } from '../log.js';
import { listenPrivately, startSocketServer, type SocketServer, type SocketServerOptions } from './socket.js';

const temp = createTempDirs();
let dir: string;
let gates: Gates;
const servers: SocketServer[] = [];

beforeEach(async () => {
  dir = temp.make();
  gates = createGates();
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  temp.cleanup();
});

async function start(overrides: Partial<SocketServerOptions> = {}): Promise<SocketServer> {
  const server = await startSocketServer({
    path: join(dir, 'mnemo.sock'),
    table: createTestTable(gates),
    maxLineBytes: 1024 * 1024,
    idleMs: 5000,
    maxConnections: 64,
    log: silentLogger(),
    ...overrides,
  });
  servers.push(server);
  return server;
}

const codeOf = (error: unknown): string | undefined => (isMemoryError(error) ? error.code : undefined);

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('socket server: requests', () => {
  it('answers several pipelined requests on one connection, each by its id', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    conn.sendRaw(
      [
        { id: 'held', method: 'slow', params: { key: 'a' } },
        { id: 1, method: 'echo', params: { owner: 'u1', text: 'one' } },
        { id: 2, method: 'echo', params: { owner: 'u1', text: 'two' } },
      ]
        .map((request) => `${JSON.stringify(request)}\r\n`)
        .join(''),
    );
    const first = [await conn.next(), await conn.next()];
    expect(first).toEqual([
      { id: 1, ok: true, result: { owner: 'u1', text: 'one' } },
      { id: 2, ok: true, result: { owner: 'u1', text: 'two' } },
    ]);
    gates.release('a');
    expect(await conn.next()).toEqual({ id: 'held', ok: true, result: { key: 'a' } });
    conn.send({ id: 3, method: 'health' });
    expect(await conn.next()).toEqual({ id: 3, ok: true, result: { status: 'ok' } });
  });

  it('answers malformed JSON with INVALID_JSON and keeps the connection', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    conn.sendRaw('{"id": 1, "method": \n');
    expect(await conn.next()).toMatchObject({ id: null, ok: false, error: { code: 'INVALID_JSON' } });
    conn.send({ id: 2, method: 'echo', params: { owner: 'u1', text: 'still here' } });
    expect(await conn.next()).toMatchObject({ id: 2, ok: true });
  });

  it('maps envelope and params errors, naming the field', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    conn.send({ id: 1, method: 'nope' });
    expect(await conn.next()).toMatchObject({ id: 1, ok: false, error: { code: 'UNKNOWN_METHOD' } });
    conn.send({ id: 2, method: 'echo', params: { owner: 'u1', text: 42 } });
    const wrongType = await conn.next();
    expect(wrongType).toMatchObject({ id: 2, ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(wrongType.error).toMatchObject({ data: { issues: [{ path: 'text' }] } });
    conn.send({ id: 3, method: 'echo', params: { text: 'no owner' } });
    expect(await conn.next()).toMatchObject({
      id: 3,
      error: { code: 'INVALID_PARAMS', data: { issues: [{ path: 'owner' }] } },
    });
    conn.send([1, 2]);
    expect(await conn.next()).toMatchObject({ id: null, error: { code: 'INVALID_REQUEST' } });
  });

  it('hides a plain error behind INTERNAL', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    conn.send({ id: 1, method: 'boom' });
    const response = await conn.next();
    expect(response).toEqual({ id: 1, ok: false, error: { code: 'INTERNAL', message: 'Internal error.' } });
  });

  it('keeps reading a pipelining client that reads nothing until it has sent everything', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    conn.socket.pause();
    const text = 'x'.repeat(4096);
    const count = 2000;
    for (let id = 0; id < count; id++) conn.send({ id, method: 'echo', params: { owner: 'u1', text } });
    conn.socket.resume();
    const ids = new Set<unknown>();
    for (let i = 0; i < count; i++) ids.add((await conn.next()).id);
    expect(ids.size).toBe(count);
  });

  it('answers INTERNAL when a result cannot be serialized', async () => {
    const table = new Map(createTestTable(gates));
    table.set('bigint', {
      name: 'bigint',
      summary: 'returns what JSON cannot hold',
      access: 'read',
      owner: 'none',
      params: z.object({}),
      result: z.unknown(),
      handler: async () => ({ n: 1n }),
    });
    const server = await start({ table });
    const conn = await openLineConnection(server.path);
    conn.send({ id: 1, method: 'bigint' });
    expect(await conn.next()).toEqual({
      id: 1,
      ok: false,
      error: { code: 'INTERNAL', message: 'Internal error.' },
    });
  });

  it('answers a last line the client sent without a newline before hanging up', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    conn.socket.end(JSON.stringify({ id: 9, method: 'health' }));
    expect(await conn.next()).toMatchObject({ id: 9, ok: true });
    await conn.ended;
  });
});

describe('socket server: limits', () => {
  it('closes only the connection whose line is too large', async () => {
    const server = await start();
    const other = await openLineConnection(server.path);
    const big = await openLineConnection(server.path);
    big.sendRaw(
      `{"id":1,"method":"echo","params":{"owner":"u1","text":"${'x'.repeat(1024 * 1024 + 10)}"}}\n`,
    );
    expect(await big.next()).toMatchObject({ id: null, ok: false, error: { code: 'REQUEST_TOO_LARGE' } });
    await big.ended;
    other.send({ id: 1, method: 'echo', params: { owner: 'u1', text: 'fine' } });
    expect(await other.next()).toMatchObject({ id: 1, ok: true });
  });

  it('times out an idle connection but not one with a request in flight', async () => {
    const server = await start({ idleMs: 250 });
    const busy = await openLineConnection(server.path);
    busy.send({ id: 1, method: 'slow', params: { key: 'busy' } });
    await gates.entered('busy');
    const idle = await openLineConnection(server.path);
    expect(await idle.next()).toMatchObject({ id: null, ok: false, error: { code: 'IDLE_TIMEOUT' } });
    await idle.ended;
    gates.release('busy');
    expect(await busy.next()).toMatchObject({ id: 1, ok: true });
  });

  it('rejects the connection past maxConnections and keeps the others working', async () => {
    const server = await start({ maxConnections: 3 });
    const open = await Promise.all([1, 2, 3].map(() => openLineConnection(server.path)));
    for (const [i, conn] of open.entries()) {
      conn.send({ id: i, method: 'health' });
      expect(await conn.next()).toMatchObject({ id: i, ok: true });
    }
    const extra = await openLineConnection(server.path);
    expect(await extra.next()).toMatchObject({
      id: null,
      ok: false,
      error: { code: 'TOO_MANY_CONNECTIONS' },
    });
    await extra.ended;
    expect(server.connections()).toBe(3);
    for (const [i, conn] of open.entries()) {
      conn.send({ id: i, method: 'health' });
      expect(await conn.next()).toMatchObject({ id: i, ok: true });
    }
    open[0]?.socket.destroy();
    await until(() => server.connections() === 2);
    const again = await openLineConnection(server.path);
    again.send({ id: 'again', method: 'health' });
    expect(await again.next()).toMatchObject({ id: 'again', ok: true });
  });
});

describe('socket server: the socket file', () => {
  it('is created 0600, with its parent directory', async () => {
    const server = await start({ path: join(dir, 'nested', 'mnemo.sock') });
    expect((await stat(server.path)).mode & 0o777).toBe(0o600);
  });

  it('regression for issue 8: binds the socket file 0600 under a process umask of 0', async () => {
    // No chmod follows listenPrivately: the mode seen here is the one the bind gave the file.
    const path = join(dir, 'bare.sock');
    const bare = createServer();
    const umask = process.umask(0);
    try {
      await listenPrivately(bare, path);
      expect((await lstat(path)).mode & 0o777).toBe(0o600);
    } finally {
      expect(process.umask(umask)).toBe(0);
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('is created 0600 under a process umask of 0', async () => {
    const umask = process.umask(0);
    try {
      const server = await start();
      expect((await stat(server.path)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  });

  it('refuses a live socket and leaves it untouched', async () => {
    const live = await start();
    const before = await lstat(live.path);
    const error = await start().catch((e: unknown) => e);
    expect(codeOf(error)).toBe('SOCKET_IN_USE');
    expect((await lstat(live.path)).ino).toBe(before.ino);
    const conn = await openLineConnection(live.path);
    conn.send({ id: 1, method: 'health' });
    expect(await conn.next()).toMatchObject({ id: 1, ok: true });
  });

  it('replaces a stale socket file', async () => {
    const path = join(dir, 'mnemo.sock');
    const spare = join(dir, 'spare.sock');
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(path, resolve));
    await link(path, spare);
    await new Promise((resolve) => dead.close(resolve));
    await rename(spare, path);
    expect((await lstat(path)).isSocket()).toBe(true);
    const server = await start({ path });
    const conn = await openLineConnection(server.path);
    conn.send({ id: 1, method: 'health' });
    expect(await conn.next()).toMatchObject({ id: 1, ok: true });
  });

  it('refuses a path that is not a socket, and one over the OS limit', async () => {
    const path = join(dir, 'not-a-socket');
    await writeFile(path, 'keep me');
    expect(codeOf(await start({ path }).catch((e: unknown) => e))).toBe('CONFIG_INVALID');
    expect((await lstat(path)).isFile()).toBe(true);
    const long = join(dir, `${'d'.repeat(120)}.sock`);
    const error = await start({ path: long }).catch((e: unknown) => e);
    expect(codeOf(error)).toBe('CONFIG_INVALID');
    expect((error as Error).message).toMatch(/OS limit/);
  });

  it('is removed on close', async () => {
    const server = await start();
    await server.close();
    await expect(lstat(server.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('socket server: close', () => {
  it('finishes running requests, refuses new ones, then hangs up', async () => {
    const server = await start();
    const busy = await openLineConnection(server.path);
    const idle = await openLineConnection(server.path);
    busy.send({ id: 1, method: 'slow', params: { key: 'k' } });
    await gates.entered('k');
    const closed = server.close();
    expect(await idle.next()).toMatchObject({ id: null, error: { code: 'SHUTTING_DOWN' } });
    await idle.ended;
    busy.send({ id: 2, method: 'health' });
    expect(await busy.next()).toMatchObject({ id: 2, ok: false, error: { code: 'SHUTTING_DOWN' } });
    await expect(openLineConnection(server.path)).rejects.toMatchObject({
      code: expect.stringMatching(/ENOENT|ECONNREFUSED/),
    });
    gates.release('k');
    expect(await busy.next()).toEqual({ id: 1, ok: true, result: { key: 'k' } });
    await busy.ended;
    await closed;
    expect(server.connections()).toBe(0);
    await expect(lstat(server.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
