import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDirs } from '../test/helpers/temp.js';
import { createGates, createTestTable, type Gates } from '../test/helpers/transport-fixtures.js';
import {
  createHttpClient,
  createSocketClient,
  fromWireError,
  probeSocket,
  type MnemoClient,
} from './client.js';
import { isMemoryError, type MemoryError } from './errors.js';
import { silentLogger } from './log.js';
import { tokenAuthenticator } from './protocol/http-guard.js';
import { httpTokenPath } from './protocol/http-token.js';
import { startHttpServer, type HttpServer } from './protocol/http.js';
import { startSocketServer, type SocketServer } from './protocol/socket.js';

const temp = createTempDirs();
let dir: string;
let gates: Gates;
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = temp.make();
  gates = createGates();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  temp.cleanup();
});

async function socketServer(idleMs = 5000): Promise<SocketServer> {
  const server = await startSocketServer({
    path: join(dir, 'mnemo.sock'),
    table: createTestTable(gates),
    maxLineBytes: 1024 * 1024,
    idleMs,
    maxConnections: 64,
    log: silentLogger(),
  });
  closers.push(() => server.close());
  return server;
}

async function httpServer(token?: string): Promise<HttpServer> {
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    authenticate: token === undefined ? 'off' : tokenAuthenticator(token),
    table: createTestTable(gates),
    maxBodyBytes: 1024 * 1024,
    maxResponseBytes: 16 * 1024 * 1024,
    maxConnections: 64,
    headersTimeoutMs: 5_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    log: silentLogger(),
  });
  closers.push(() => server.close());
  return server;
}

function track(client: MnemoClient): MnemoClient {
  closers.push(() => client.close());
  return client;
}

const failure = (promise: Promise<unknown>): Promise<MemoryError> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => {
      if (!isMemoryError(error)) throw error;
      return error;
    },
  );

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('fromWireError', () => {
  it('keeps known codes and maps unknown ones to INTERNAL with the message', () => {
    const known = fromWireError({ code: 'NOT_FOUND', message: 'gone', data: { id: 'm1' } });
    expect([known.code, known.message, known.data]).toEqual(['NOT_FOUND', 'gone', { id: 'm1' }]);
    const unknown = fromWireError({ code: 'FROM_THE_FUTURE', message: 'newer server' });
    expect([unknown.code, unknown.message, unknown.data]).toEqual([
      'INTERNAL',
      'newer server',
      { wireCode: 'FROM_THE_FUTURE' },
    ]);
  });
});

describe('socket client', () => {
  it('pipelines calls on one connection and matches answers by id', async () => {
    const server = await socketServer();
    const client = track(createSocketClient(server.path));
    const held = client.call<{ key: string }>('slow', { key: 'k' });
    const quick = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.call('echo', { owner: 'u1', text: `n${i}` })),
    );
    expect(quick.map((r) => (r as { text: string }).text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `n${i}`),
    );
    expect(server.connections()).toBe(1);
    gates.release('k');
    expect(await held).toEqual({ key: 'k' });
  });

  it('throws MemoryError with the wire code, message and data', async () => {
    const server = await socketServer();
    const client = track(createSocketClient(server.path));
    expect((await failure(client.call('nope'))).code).toBe('UNKNOWN_METHOD');
    const invalid = await failure(client.call('echo', { owner: 'u1' }));
    expect(invalid.code).toBe('INVALID_PARAMS');
    expect(invalid.data).toMatchObject({ issues: [{ path: 'text' }] });
    expect(await failure(client.call('boom'))).toMatchObject({
      code: 'INTERNAL',
      message: 'Internal error.',
    });
    expect(await client.call('health')).toEqual({ status: 'ok' });
  });

  it('reports SERVER_UNAVAILABLE when nothing listens', async () => {
    const client = track(createSocketClient(join(dir, 'absent.sock')));
    const error = await failure(client.call('health'));
    expect(error.code).toBe('SERVER_UNAVAILABLE');
    expect(error.data).toMatchObject({ errno: 'ENOENT' });
  });

  it('reconnects after the server closed an idle connection', async () => {
    const server = await socketServer(50);
    const client = track(createSocketClient(server.path));
    expect(await client.call('health')).toEqual({ status: 'ok' });
    await until(() => server.connections() === 0);
    expect(await client.call('health')).toEqual({ status: 'ok' });
  });

  it('resends a request the server dropped with an idle notice, once', async () => {
    // A raw server that hangs up on its first connection as if the idle timer won the race.
    const path = join(dir, 'racy.sock');
    let accepted = 0;
    const racy: Server = createServer((socket) => {
      const first = ++accepted === 1;
      socket.setEncoding('utf8');
      socket.on('data', (text: string) => {
        const { id } = JSON.parse(text.trim()) as { id: number };
        socket.write(
          first
            ? `${JSON.stringify({ id: null, ok: false, error: { code: 'IDLE_TIMEOUT', message: 'idle' } })}\n`
            : `${JSON.stringify({ id, ok: true, result: { attempt: accepted } })}\n`,
        );
        if (first) socket.end();
      });
    });
    await new Promise<void>((resolve) => racy.listen(path, resolve));
    closers.push(() => new Promise((resolve) => racy.close(() => resolve())));
    const client = track(createSocketClient(path));
    expect(await client.call('anything')).toEqual({ attempt: 2 });
  });

  it('times out a call and keeps the connection', async () => {
    const server = await socketServer();
    const client = track(createSocketClient(server.path, { timeoutMs: 50 }));
    const error = await failure(client.call('slow', { key: 'never' }));
    expect(error.code).toBe('SERVER_UNAVAILABLE');
    expect(error.message).toMatch(/no answer in 50 ms/);
    gates.release('never');
    expect(server.connections()).toBe(1);
  });

  it('waits for running calls on close, then refuses new ones', async () => {
    const server = await socketServer();
    const client = createSocketClient(server.path);
    const held = client.call('slow', { key: 'k' });
    await gates.entered('k');
    const closed = client.close();
    gates.release('k');
    expect(await held).toEqual({ key: 'k' });
    await closed;
    expect((await failure(client.call('health'))).code).toBe('SERVER_UNAVAILABLE');
    await until(() => server.connections() === 0);
  });

  it('learns that the server is shutting down', async () => {
    const server = await socketServer();
    const client = track(createSocketClient(server.path));
    expect(await client.call('health')).toEqual({ status: 'ok' });
    await server.close();
    expect((await failure(client.call('health'))).code).toBe('SERVER_UNAVAILABLE');
  });
});

describe('probeSocket', () => {
  it('is true only while a server listens', async () => {
    const path = join(dir, 'mnemo.sock');
    expect(await probeSocket(path)).toBe(false);
    const server = await socketServer();
    expect(await probeSocket(path)).toBe(true);
    await server.close();
    expect(await probeSocket(path)).toBe(false);
  });
});

describe('http client', () => {
  it('round-trips calls with the token and maps errors', async () => {
    const server = await httpServer('test-token-0123456789abcdef');
    const client = track(createHttpClient(`${server.url}/`, { token: 'test-token-0123456789abcdef' }));
    expect(await client.call('echo', { owner: 'u1', text: 'hi' })).toEqual({ owner: 'u1', text: 'hi' });
    const invalid = await failure(client.call('echo', { owner: 3, text: 'hi' }));
    expect(invalid).toMatchObject({ code: 'INVALID_PARAMS', data: { issues: [{ path: 'owner' }] } });
    expect((await failure(client.call('nope'))).code).toBe('UNKNOWN_METHOD');
    const anonymous = track(createHttpClient(server.url));
    expect((await failure(anonymous.call('health'))).code).toBe('UNAUTHORIZED');
  });

  it('regression for issue 8: reads the token from the data directory when given no token', async () => {
    const token = 'file-token-0123456789abcdef';
    const server = await httpServer(token);
    const client = track(createHttpClient(server.url, { dataDir: dir }));
    expect((await failure(client.call('health'))).code).toBe('UNAUTHORIZED');
    // The server writes the file on its first start; the client reads it once it is there.
    writeFileSync(httpTokenPath(dir), `${token}\n`, { mode: 0o600 });
    expect(await client.call('echo', { owner: 'u1', text: 'hi' })).toEqual({ owner: 'u1', text: 'hi' });
    const explicit = track(createHttpClient(server.url, { dataDir: dir, token: 'wrong-token-0123456789' }));
    expect((await failure(explicit.call('health'))).code).toBe('UNAUTHORIZED');
  });

  it('reports SERVER_UNAVAILABLE when nothing listens', async () => {
    const server = await httpServer();
    await server.close();
    const client = track(createHttpClient(server.url));
    const error = await failure(client.call('health'));
    expect(error.code).toBe('SERVER_UNAVAILABLE');
    expect(error.data).toMatchObject({ errno: 'ECONNREFUSED' });
  });
});
