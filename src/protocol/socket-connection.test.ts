import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createGates,
  createTestTable,
  openLineConnection,
  type Gates,
} from '../../test/helpers/transport-fixtures.js';
import { createTempDirs } from '../../test/helpers/temp.js';
import { silentLogger } from '../log.js';
import { ENGINES, openTestService } from '../../test/helpers/engines.js';
import { createMethodTable } from './methods.js';
import { defineMethod, type MethodTable } from './method.js';
import { startSocketServer, type SocketServer, type SocketServerOptions } from './socket.js';

const temp = createTempDirs();
let dir: string;
let gates: Gates;
const closers: Array<() => Promise<void>> = [];

beforeEach(() => {
  dir = temp.make();
  gates = createGates();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
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
  closers.push(() => server.close());
  return server;
}

/** The test table plus `blob`, whose answer is much larger than its request. */
function withBlob(table: MethodTable): MethodTable {
  const blob = defineMethod({
    name: 'blob',
    summary: 'answers size bytes',
    access: 'read',
    owner: 'none',
    params: z.object({ size: z.number().int() }),
    result: z.object({ text: z.string() }),
    handler: async (p) => ({ text: 'x'.repeat(p.size) }),
  });
  return new Map([...table, ['blob', blob]]);
}

/** A logger that resolves `seen` once a line containing text was logged. */
function watchLog(text: string) {
  let resolve!: () => void;
  const seen = new Promise<void>((r) => (resolve = r));
  const log = pino({ level: 'warn' }, { write: (line: string) => void (line.includes(text) && resolve()) });
  return { log, seen };
}

const lines = (requests: unknown[]): string => requests.map((r) => `${JSON.stringify(r)}\n`).join('');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(5);
}

describe('socket connection: a connection that ends runs nothing more', () => {
  it('regression for issue 8: runs nothing after an oversize line in the same chunk', async () => {
    const server = await start({ maxLineBytes: 100 });
    const conn = await openLineConnection(server.path);
    conn.sendRaw(
      lines([
        { id: 1, method: 'echo', params: { owner: 'u1', text: 'x'.repeat(200) } },
        { id: 2, method: 'record', params: { key: 'after' } },
      ]),
    );
    expect(await conn.next()).toMatchObject({ id: null, error: { code: 'REQUEST_TOO_LARGE' } });
    // The server ends the connection while it reads that chunk, so it has read all of it by now.
    await conn.ended;
    expect(gates.passed).toEqual([]);
  });

  it('regression for issue 8: closes a connection whose request line trickles in, and never runs it', async () => {
    const server = await start({ idleMs: 60_000, lineTimeoutMs: 200 });
    const conn = await openLineConnection(server.path);
    let answer: Record<string, unknown> | undefined;
    void conn.next().then((line) => (answer = line));
    // Each byte resets an idle timer, never the line's deadline: 20 ms a byte outlasts 200 ms.
    for (const char of JSON.stringify({ id: 1, method: 'record', params: { key: 'late' } })) {
      if (answer) break;
      conn.sendRaw(char);
      await sleep(20);
    }
    conn.socket.end('\n');
    await until(() => server.connections() === 0);
    expect(answer).toMatchObject({ id: null, ok: false, error: { code: 'REQUEST_TIMEOUT' } });
    expect(gates.passed).toEqual([]);
  });

  it('answers a line sent in several chunks within its deadline', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    conn.sendRaw('{"id": 1, "method": ');
    await sleep(10);
    conn.sendRaw('"health"}\n');
    expect(await conn.next()).toMatchObject({ id: 1, ok: true });
  });
});

describe('socket connection: a peer that does not read', () => {
  it('regression for issue 8: closes a connection whose unread answers pass maxBufferedBytes', async () => {
    const { log, seen } = watchLog('socket client too slow');
    const maxBufferedBytes = 1024 * 1024;
    const server = await start({ table: withBlob(createTestTable(gates)), maxBufferedBytes, log });
    const conn = await openLineConnection(server.path);
    conn.socket.pause();
    const count = 64;
    const size = 256 * 1024;
    conn.sendRaw(lines(Array.from({ length: count }, (_, id) => ({ id, method: 'blob', params: { size } }))));
    await seen;
    conn.socket.resume();
    const received: Array<Record<string, unknown>> = [];
    for (let line = await conn.next(); ; line = await conn.next()) {
      received.push(line);
      if (line.id === null) break;
    }
    expect(received.at(-1)).toMatchObject({ id: null, ok: false, error: { code: 'SLOW_CONSUMER' } });
    // 64 answers of 256 KiB are 16 MiB; only 1 MiB plus what the kernel buffers may wait unsent.
    expect(received.length - 1).toBeLessThan(count);
    await conn.ended;
  });

  it('regression for issue 8: drops a peer that reads no answer for idleMs, even with a request running', async () => {
    const { log, seen } = watchLog('no answer read for 200 ms');
    const server = await start({ table: withBlob(createTestTable(gates)), idleMs: 200, log });
    const conn = await openLineConnection(server.path);
    conn.socket.pause();
    const blobs = Array.from({ length: 16 }, (_, id) => ({
      id,
      method: 'blob',
      params: { size: 256 * 1024 },
    }));
    conn.sendRaw(lines([{ id: 'held', method: 'slow', params: { key: 'held' } }, ...blobs]));
    await gates.entered('held');
    await seen;
    await until(() => server.connections() === 0);
    gates.release('held');
  });

  it('keeps a pipelining client that reads its answers late but within idleMs', async () => {
    const server = await start({ table: withBlob(createTestTable(gates)) });
    const conn = await openLineConnection(server.path);
    conn.socket.pause();
    const count = 200;
    conn.sendRaw(
      lines(Array.from({ length: count }, (_, id) => ({ id, method: 'blob', params: { size: 64 * 1024 } }))),
    );
    await sleep(50);
    conn.socket.resume();
    const ids = new Set<unknown>();
    for (let i = 0; i < count; i++) ids.add((await conn.next()).id);
    expect(ids.size).toBe(count);
  });
});

describe('socket connection: order', () => {
  it('regression for issue 8: runs the writes of one connection one after another, reads at once', async () => {
    const server = await start();
    const conn = await openLineConnection(server.path);
    const other = await openLineConnection(server.path);
    conn.sendRaw(
      lines([
        { id: 'a', method: 'record', params: { key: 'a' } },
        { id: 'b', method: 'record', params: { key: 'b' } },
        { id: 'r', method: 'slow', params: { key: 'r' } },
        { id: 'echo', method: 'echo', params: { owner: 'u1', text: 'hi' } },
      ]),
    );
    await Promise.all([gates.entered('a'), gates.entered('r')]);
    // Answered after all four lines were read: b was read too, and waits for a.
    expect(await conn.next()).toMatchObject({ id: 'echo', ok: true });
    other.send({ id: 'c', method: 'record', params: { key: 'c' } });
    await gates.entered('c');
    expect(gates.passed).not.toContain('b');
    gates.release('a');
    expect(await conn.next()).toMatchObject({ id: 'a', ok: true });
    await gates.entered('b');
    expect(gates.passed.at(-1)).toBe('b');
    for (const key of ['b', 'r', 'c']) gates.release(key);
    const rest = [await conn.next(), await conn.next(), await other.next()].map((line) => line.id);
    expect(rest.sort()).toEqual(['b', 'c', 'r']);
  });

  it.each(ENGINES)(
    'regression for issue 8: commits pipelined ingest calls in the order sent (%s)',
    async (engine) => {
      const { service, close } = await openTestService(engine, {
        config: { dataDir: 'unused', ingestWorkers: 1 },
      });
      closers.push(close);
      const server = await start({ table: createMethodTable(service) });
      const conn = await openLineConnection(server.path);
      const event = (id: string, text: string) => ({
        event_id: id,
        kind: 'user_message',
        role: 'user',
        at: '2026-09-17T10:00:00Z',
        text,
      });
      // 32 events of 1,000 characters go to the worker threads; the one small event is prepared inline.
      const large = Array.from({ length: 32 }, (_, i) => event(`big-${i}`, `word${i} `.repeat(125)));
      conn.sendRaw(
        lines([
          { id: 1, method: 'memory.events.ingest', params: { owner: 'u1', events: large } },
          { id: 2, method: 'memory.events.ingest', params: { owner: 'u1', events: [event('small', 'hi')] } },
        ]),
      );
      const acks = [await conn.next(), await conn.next()];
      expect(acks.map((ack) => ack.id)).toEqual([1, 2]);
      conn.send({ id: 3, method: 'health' });
      expect(await conn.next()).toMatchObject({ result: { ingest_calls: { pooled: 1, inline: 1 } } });
      const ids = [...large.map((e) => e.event_id), 'small'];
      conn.send({ id: 4, method: 'memory.evidence.get', params: { owner: 'u1', ids } });
      const { result } = (await conn.next()) as { result: { items: Array<{ id: string; seq: number }> } };
      const seqs = result.items.map((item) => item.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(result.items.map((item) => item.id)).toEqual(ids);
    },
  );
});
