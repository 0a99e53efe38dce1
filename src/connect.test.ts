// The typed client of `mnemo-memory/client` against real servers: the catalog's names and types, wire
// codes as MemoryError, reconnects with backoff, no resent write whose answer was lost, timeouts.
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDirs } from '../test/helpers/temp.js';
import { loadConfig } from './config.js';
import { connect, MemoryError, type MemoryClient, type RetryEvent } from './connect.js';
import { silentLogger } from './log.js';
import { readHttpToken } from './protocol/http-token.js';
import { startServer, type RunningServer } from './server.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

const OWNER = 'user:client';
const events = (id: string) => [{ event_id: id, kind: 'note', role: 'user', at: 0, text: `invoice ${id}` }];
const serve = (dataDir: string, http: string | false = false) =>
  startServer(loadConfig({ dataDir, http, observer: 'external' }, {}), silentLogger());

describe('against a running mnemo', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = temp.make();
    server = await serve(dir, '127.0.0.1:0');
  });
  afterAll(() => server.close());

  const clients: Array<[string, () => Promise<MemoryClient>]> = [
    ['{socket}', async () => connect({ socket: server.socket.path })],
    ['{dataDir}', async () => connect({ dataDir: dir })],
    [
      '{url, token}',
      async () => connect({ url: server.http?.url ?? '', token: (await readHttpToken(dir)) ?? '' }),
    ],
    ['{url, dataDir}', async () => connect({ url: server.http?.url ?? '', dataDir: dir })],
  ];

  it.each(clients)(
    '%s: calls methods by their catalog names and gets their typed results',
    async (_, make) => {
      const client = await make();
      const ingested = await client.call('memory.events.ingest', { owner: OWNER, events: events('c1') });
      expect(ingested.accepted + ingested.duplicates).toBe(1);
      const recalled = await client.call('memory.recall', {
        owner: OWNER,
        query: 'invoice c1',
        wait_ms: 60_000,
      });
      expect(recalled.status === 'ready' && recalled.items[0]?.id).toBe('c1');
      expect((await client.call('health')).version).toMatch(/^\d+\.\d+\.\d+$/);
      await client.close();
    },
  );

  it('throws MemoryError with the wire code, its data and whether it is retryable', async () => {
    const client = connect({ socket: server.socket.path });
    const bad = await client.call('memory.recall' as string, { owner: OWNER }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(MemoryError);
    expect(bad).toMatchObject({ code: 'INVALID_PARAMS', retryable: false });
    expect((bad as MemoryError).data?.issues).toEqual([expect.objectContaining({ path: 'query' })]);
    await expect(client.call('no.such.method')).rejects.toMatchObject({ code: 'UNKNOWN_METHOD' });
    await client.close();
  });
});

describe('connection loss', () => {
  it('with no server: SERVER_UNAVAILABLE, retryable, after the configured sends with backoff', async () => {
    const retries: RetryEvent[] = [];
    const client = connect({
      socket: join(temp.make(), 'none.sock'),
      retry: { attempts: 3, baseMs: 1, onRetry: (e) => void retries.push(e) },
    });
    const error = await client.call('health').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVER_UNAVAILABLE', retryable: true, data: { delivered: false } });
    expect(retries.map((r) => r.delayMs)).toEqual([1, 2]);
  });

  it('reconnects with backoff: a write waits for a server that starts, and goes on after a restart', async () => {
    const dir = temp.make();
    let server: RunningServer | undefined;
    const client = connect({
      dataDir: dir,
      // The first failed send starts the server; the next one finds it.
      retry: { baseMs: 1, onRetry: async () => void (server ??= await serve(dir)) },
    });
    const first = await client.call('memory.events.ingest', { owner: OWNER, events: events('r1') });
    expect(first.accepted).toBe(1);
    await server?.close();
    server = undefined;
    const second = await client.call('memory.events.ingest', { owner: OWNER, events: events('r2') });
    expect(second.accepted).toBe(1);
    const recalled = await client.call('memory.recall', { owner: OWNER, query: 'invoice', wait_ms: 60_000 });
    expect(recalled.status === 'ready' && recalled.items).toHaveLength(2);
    await client.close();
    await (server as RunningServer | undefined)?.close();
  });
});

/** A socket peer that answers each request line as `reply` says: drop the connection, a notice, or a result. */
async function scriptedPeer(reply: (n: number, id: unknown, socket: Socket) => void) {
  const path = join(temp.make(), 'peer.sock');
  const lines: string[] = [];
  const server: Server = createServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString();
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        lines.push(line);
        reply(lines.length, (JSON.parse(line) as { id: unknown }).id, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, lines, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
const answer = (socket: Socket, id: unknown) =>
  socket.write(`${JSON.stringify({ id, ok: true, result: {} })}\n`);

describe('what is sent again', () => {
  it('never resends a write whose answer was lost, and resends a read', async () => {
    const peer = await scriptedPeer((_n, _id, socket) => socket.destroy());
    const client = connect({ socket: peer.path, retry: { baseMs: 1 } });
    const lost = await client
      .call('memory.events.ingest', { owner: OWNER, events: events('w1') })
      .catch((e: unknown) => e);
    expect(lost).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: /connection/ });
    expect(peer.lines).toHaveLength(1);
    await client.close();
    await peer.close();

    const readPeer = await scriptedPeer((n, id, socket) => (n === 1 ? socket.destroy() : answer(socket, id)));
    const reader = connect({ socket: readPeer.path, retry: { baseMs: 1 } });
    await expect(reader.call('memory.recall', { owner: OWNER, query: 'x' })).resolves.toEqual({});
    expect(readPeer.lines).toHaveLength(2);
    await reader.close();
    await readPeer.close();
  });

  it('resends a write the server refused unread (SHUTTING_DOWN)', async () => {
    const notice = { id: null, ok: false, error: { code: 'SHUTTING_DOWN', message: 'bye' } };
    const peer = await scriptedPeer((n, id, socket) =>
      n === 1 ? socket.end(`${JSON.stringify(notice)}\n`) : answer(socket, id),
    );
    const client = connect({ socket: peer.path, retry: { baseMs: 1 } });
    await expect(
      client.call('memory.events.ingest', { owner: OWNER, events: events('s1') }),
    ).resolves.toEqual({});
    expect(peer.lines).toHaveLength(2);
    await client.close();
    await peer.close();
  });

  it('times a call out when no answer comes', async () => {
    const peer = await scriptedPeer(() => undefined);
    const client = connect({ socket: peer.path, timeoutMs: 50 });
    await expect(client.call('memory.recall', { owner: OWNER, query: 'x' })).rejects.toThrow(
      /no answer in 50 ms/,
    );
    await client.close();
    await peer.close();
  });
});

// Types only: tsc checks these lines (the test command runs it).
export async function typeChecks(client: MemoryClient): Promise<unknown[]> {
  const recall = await client.call('memory.recall', { owner: 'o', query: 'q' });
  const id: string | undefined = recall.status === 'ready' ? recall.items[0]?.id : recall.request_id;
  // @ts-expect-error a known method's params are checked
  await client.call('memory.recall', { owner: 'o' });
  // @ts-expect-error and required
  await client.call('memory.recall');
  // @ts-expect-error results are typed
  const wrong: number = (await client.call('health')).version;
  const untyped = await client.call<{ anything: true }>('a.newer.method', { any: 'thing' });
  return [id, wrong, untyped];
}
