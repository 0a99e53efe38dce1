// Regression (issue 8): a full disk or a read-only database answers STORAGE_UNAVAILABLE (retryable) and
// loses nothing acknowledged; background work backs off; the service recovers when the fault is gone.
// SQLite only: the faults are made on its file and connection (a full disk, query_only).
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempDirs } from '../../test/helpers/temp.js';
import { createSocketClient } from '../client.js';
import { loadConfig } from '../config.js';
import { MemoryError } from '../errors.js';
import { silentLogger } from '../log.js';
import { startServer, type RunningServer } from '../server.js';

const temp = createTempDirs();
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  temp.cleanup();
});

const events = (from: number, n: number, size = 200) =>
  Array.from({ length: n }, (_, i) => ({
    event_id: `e${from + i}`,
    session_id: 's1',
    kind: 'user_message',
    role: 'user',
    at: 1_780_000_000_000 + (from + i) * 1000,
    text: `note ${from + i} ${'padding words for the page count '.repeat(size / 30)}`,
  }));

const raw = (s: RunningServer) => (s.service.driver as unknown as { raw: Database.Database }).raw;

describe('storage faults', () => {
  it('answers STORAGE_UNAVAILABLE with retryable when the disk is full, keeps what was acknowledged, recovers', async () => {
    const dir = temp.make();
    server = await startServer(
      loadConfig({ dataDir: dir, http: false, observer: 'external' }, {}),
      silentLogger(),
    );
    const client = createSocketClient(server.socket.path);
    try {
      expect(await client.call('memory.events.ingest', { owner: 'o', events: events(0, 20) })).toMatchObject({
        accepted: 20,
      });
      const db = raw(server);
      const pages = db.pragma('page_count', { simple: true }) as number;
      // The file cannot grow any more: the next large write fails as on a full disk.
      db.pragma(`max_page_count = ${pages}`);
      const failed = await client.call('memory.events.ingest', { owner: 'o', events: events(20, 200) }).then(
        () => null,
        (error: MemoryError) => error,
      );
      expect(failed).toBeInstanceOf(MemoryError);
      expect(failed?.code).toBe('STORAGE_UNAVAILABLE');
      expect(failed?.data).toMatchObject({ reason: 'SQLITE_FULL' });
      // Reads go on, and what was acknowledged is all there.
      const recall = await client.call<{ items: unknown[] }>('memory.recall', { owner: 'o', query: 'note' });
      expect(recall.items.length).toBeGreaterThan(0);
      expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 20 });
      db.pragma('max_page_count = 1073741823');
      expect(
        await client.call('memory.events.ingest', { owner: 'o', events: events(20, 200) }),
      ).toMatchObject({
        accepted: 200,
      });
    } finally {
      await client.close();
    }
  });

  it('says retryable on the wire, for a read-only database too', async () => {
    const dir = temp.make();
    server = await startServer(
      loadConfig({ dataDir: dir, http: false, observer: 'external' }, {}),
      silentLogger(),
    );
    raw(server).pragma('query_only = ON');
    const { createConnection } = await import('node:net');
    const socket = createConnection(server.socket.path);
    const line = await new Promise<string>((resolve) => {
      let buffer = '';
      socket.on('data', (chunk) => {
        buffer += chunk.toString();
        if (buffer.includes('\n')) resolve(buffer.split('\n')[0] ?? '');
      });
      socket.write(
        `${JSON.stringify({ id: 1, method: 'memory.events.ingest', params: { owner: 'o', events: events(0, 1) } })}\n`,
      );
    });
    socket.destroy();
    expect(JSON.parse(line)).toMatchObject({
      id: 1,
      ok: false,
      error: { code: 'STORAGE_UNAVAILABLE', retryable: true, data: { reason: 'SQLITE_READONLY' } },
    });
  });
});
