// A PostgreSQL server lost while mnemo runs: calls answer STORAGE_UNAVAILABLE (retryable), and work again by
// themselves once the server is back (the pool reconnects). The server is reached through a TCP proxy that
// the test cuts and restores. PostgreSQL only (SQLite's faults: faults.test.ts).
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, freshPostgresUrl, postgresConfig } from '../../test/helpers/engines.js';
import { createTempDirs } from '../../test/helpers/temp.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { openMemory, type MemoryService } from '../service.js';

/** A TCP proxy to `target` on a fixed local port, which can be cut (every connection dropped) and restored. */
async function startProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  return { port, cut: stop, restore: () => listen(port), close: stop };
}

const temp = createTempDirs();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  temp.cleanup();
});

const event = (id: string) => ({ event_id: id, kind: 'note', role: 'user', at: 1_780_000_000_000, text: id });
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );

describe.runIf(ENGINES.includes('postgres'))('a lost PostgreSQL server', () => {
  it('answers STORAGE_UNAVAILABLE while it is gone and recovers once it is back', async () => {
    const store = await freshPostgresUrl();
    closers.push(store.drop);
    const proxy = await startProxy(new URL(store.url));
    const url = new URL(store.url);
    closers.push(proxy.close);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const config = { dataDir: temp.make(), redactEmails: true, ...postgresConfig(url.toString()) };
    const service: MemoryService = await openMemory({ config });
    closers.push(() => service.close());
    const client = createLocalClient(createMethodTable(service));
    const ingest = (id: string) => client.call('memory.events.ingest', { owner: 'o', events: [event(id)] });
    expect(await codeOf(ingest('before'))).toBe('ok');
    await proxy.cut();
    expect(await codeOf(ingest('during'))).toBe('STORAGE_UNAVAILABLE');
    expect(await codeOf(client.call('memory.recall', { owner: 'o', query: 'before', wait_ms: 60_000 }))).toBe(
      'STORAGE_UNAVAILABLE',
    );
    await proxy.restore();
    expect(await codeOf(ingest('after'))).toBe('ok');
    const evidence = await client.call<{ items: Array<{ id: string }> }>('memory.evidence.get', {
      owner: 'o',
      ids: ['before', 'during', 'after'],
    });
    expect(evidence.items.map((i) => i.id)).toEqual(['before', 'after']);
  });
});
