// One contract suite, run over every transport: the same requests must give the same answers.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, createSocketClient, type MnemoClient } from '../src/client.js';
import { loadConfig } from '../src/config.js';
import { MemoryError } from '../src/errors.js';
import { silentLogger } from '../src/log.js';
import { readHttpToken } from '../src/protocol/http-token.js';
import { startServer, type RunningServer } from '../src/server.js';
import { VERSION } from '../src/version.js';
import { EVENTS } from './helpers/fixtures.js';
import { createTempDirs } from './helpers/temp.js';
import { ENGINES, engineConfig } from './helpers/engines.js';

interface RecallOut {
  status: string;
  request_id: string;
  took_ms: number;
  items: Array<{
    id: string;
    kind: string;
    text: string;
    at: string;
    score: number;
    source_refs: string[];
    channels: Record<string, number>;
  }>;
}

const temp = createTempDirs();

describe.each(ENGINES)('on %s', (engine) => {
  let server: RunningServer;
  let dir: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    dir = temp.make();
    const store = await engineConfig(engine);
    drop = store.drop;
    const config = loadConfig({ dataDir: dir, http: '127.0.0.1:0', observer: 'external' }, {});
    server = await startServer({ ...config, ...store.config }, silentLogger(), { checkResults: true });
  });
  afterAll(async () => {
    await server.close();
    await drop();
    temp.cleanup();
  });

  const transports: Array<[string, () => MnemoClient]> = [
    ['socket', () => createSocketClient(server.socket.path)],
    ['http', () => createHttpClient(server.http?.url ?? '', { dataDir: dir })],
  ];

  describe.each(transports)('contract over %s', (name, makeClient) => {
    let client: MnemoClient;
    const owner = `user:${name}`;
    beforeAll(async () => {
      client = makeClient();
      const result = await client.call('memory.events.ingest', { owner, events: EVENTS });
      expect(result).toEqual({ accepted: EVENTS.length, duplicates: 0, rejected: [] });
    });
    afterAll(() => client.close());

    const recall = (query: string, extra: Record<string, unknown> = {}) =>
      client.call<RecallOut>('memory.recall', { owner, query, wait_ms: 60_000, ...extra });
    const ids = (r: RecallOut) => r.items.map((i) => i.id);
    const codeOf = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (error) {
        if (error instanceof MemoryError)
          return { code: error.code, data: error.data, message: error.message };
        throw error;
      }
      throw new Error('expected an error');
    };

    it('reports health with version, schema version and counts', async () => {
      const health = await client.call<{
        status: string;
        version: string;
        schema_version: number;
        counts: { events: number };
      }>('health');
      expect(health.status).toBe('ok');
      expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(health.schema_version).toBeGreaterThanOrEqual(1);
      expect(health.counts.events).toBeGreaterThanOrEqual(EVENTS.length);
    });

    it('re-ingesting the same events reports duplicates and changes nothing', async () => {
      const again = await client.call('memory.events.ingest', { owner, events: EVENTS });
      expect(again).toEqual({ accepted: 0, duplicates: EVENTS.length, rejected: [] });
    });

    it('EVENT_CONFLICT leaves the stored event untouched, and other events of the call are stored', async () => {
      const changed = { ...EVENTS[0], text: 'a different text' };
      const fresh = {
        event_id: 'e-new',
        kind: 'note',
        role: 'system',
        at: 1_790_000_000_000,
        text: 'a fresh note',
      };
      const bad = { event_id: 'e-bad', kind: 'gossip', role: 'user', at: 'yesterday', text: 'x' };
      const result = await client.call<{
        accepted: number;
        duplicates: number;
        rejected: Array<{ event_id: string; code: string; message: string }>;
      }>('memory.events.ingest', { owner, events: [changed, fresh, bad] });
      expect(result.accepted).toBe(1);
      expect(result.rejected.map((r) => [r.event_id, r.code])).toEqual([
        ['e-bad', 'EVENT_INVALID'],
        ['e1', 'EVENT_CONFLICT'],
      ]);
      expect(result.rejected[0]?.message).toMatch(/kind/);
      expect(result.rejected[0]?.message).toMatch(/at/);
      const evidence = await client.call<{ items: Array<{ text: string }> }>('memory.evidence.get', {
        owner,
        ids: ['e1'],
      });
      expect(evidence.items[0]?.text).toBe(EVENTS[0].text);
    });

    it('recalls Chinese by words', async () => {
      expect(ids(await recall('发票报销')).at(0)).toBe('e1');
      expect(ids(await recall('靠窗的座位'))).toContain('e6');
      expect(ids(await recall('官网设计')).at(0)).toBe('e7');
    });

    it('recalls English with light stemming', async () => {
      expect(ids(await recall('window seat flight'))).toEqual(expect.arrayContaining(['e5', 'e6']));
      expect(ids(await recall('expense reports')).slice(0, 2)).toEqual(expect.arrayContaining(['e3', 'e4']));
    });

    it('recalls by exact ids: order numbers, task ids and file names', async () => {
      const byOrder = await recall('RB-2026-0917');
      expect(byOrder.items[0]?.id).toBe('e1');
      expect(byOrder.items[0]?.channels.id).toBe(1);
      expect(ids(await recall('t042'))).toEqual(expect.arrayContaining(['e3', 'e4']));
      expect(ids(await recall('invoice_2026-09.pdf')).at(0)).toBe('e2');
    });

    it('answers in the documented shape, with channel ranks and source refs', async () => {
      const r = await recall('发票 invoice');
      expect(r.status).toBe('ready');
      expect(r.request_id).toMatch(/[0-9a-f-]{36}/);
      expect(typeof r.took_ms).toBe('number');
      for (const item of r.items) {
        expect(item.kind).toBe('event');
        expect(item.source_refs).toEqual([item.id]);
        expect(Object.keys(item.channels).length).toBeGreaterThan(0);
        expect(item.score).toBeGreaterThan(0);
      }
    });

    it('filters by time, session and task', async () => {
      const r = await recall('meeting design 设计', { from: '2026-09-02T00:00:00Z' });
      expect(ids(r).every((id) => id === 'e7' || id === 'e8')).toBe(true);
      expect(ids(await recall('expense', { task_id: 't042' }))).toEqual(expect.arrayContaining(['e3', 'e4']));
      expect(ids(await recall('window', { session_id: 's1' }))).toEqual([]);
    });

    it('never returns another owner’s data', async () => {
      const other = await client.call<RecallOut>('memory.recall', {
        owner: `${owner}:other`,
        query: '发票报销 RB-2026-0917',
      });
      expect(other.items).toEqual([]);
      const evidence = await client.call<{ items: unknown[]; missing: string[] }>('memory.evidence.get', {
        owner: `${owner}:other`,
        ids: ['e1'],
      });
      expect(evidence).toEqual({ items: [], missing: ['e1'] });
    });

    it('timeline: append, query heads, page by sequence, read ranges', async () => {
      const long = 'x'.repeat(2_000) + ' 长文本结尾 tail';
      const appended = await client.call<{ id: string; seq: number; duplicate: boolean }>('timeline.append', {
        owner,
        id: 'tl-1',
        kind: 'tool_result',
        text: long,
        source: { task_id: 't99', file: 'report.txt' },
      });
      expect(appended.duplicate).toBe(false);
      const q = await client.call<{
        items: Array<{ id: string; head: string; truncated: boolean; length: number }>;
      }>('timeline.query', { owner, query: '长文本结尾', task_id: 't99' });
      expect(q.items[0]?.id).toBe('tl-1');
      expect(q.items[0]?.head.length).toBe(1_200);
      expect(q.items[0]?.truncated).toBe(true);
      const page1 = await client.call<{
        items: Array<{ id: string }>;
        next_after: number | null;
        total: number;
      }>('timeline.query', {
        owner,
        limit: 3,
      });
      expect(page1.items.map((i) => i.id)).toEqual(['e1', 'e2', 'e3']);
      // Regression for issue 8: total is the number of matches (命中数), not the items on the page.
      const all = await client.call<{ items: Array<{ head: string }>; total: number }>('timeline.query', {
        owner,
        limit: 50,
      });
      expect(page1.total).toBe(all.items.length);
      expect(all.total).toBe(all.items.length);
      expect(page1.total).toBeGreaterThan(3);
      const words = await client.call<{ items: unknown[]; total: number }>('timeline.query', {
        owner,
        query: 'window',
        limit: 1,
      });
      expect(words.items).toHaveLength(1);
      const heads = all.items.map((i) => i.head);
      expect(words.total).toBe(heads.filter((h) => /window/i.test(h)).length);
      expect(words.total).toBeGreaterThan(1);
      const page2 = await client.call<{ items: Array<{ id: string }> }>('timeline.query', {
        owner,
        limit: 3,
        after: page1.next_after,
      });
      expect(page2.items.map((i) => i.id)).toEqual(['e4', 'e5', 'e6']);
      const read = await client.call<{ text: string; next_offset: number | null; length: number }>(
        'timeline.read',
        {
          owner,
          id: 'tl-1',
          offset: 1_990,
          limit: 20,
        },
      );
      expect(read.text).toBe('xxxxxxxxxx 长文本结尾 tai');
      expect(read.next_offset).toBe(2_010);
      const tail = await client.call<{ text: string; next_offset: number | null }>('timeline.expand', {
        owner,
        id: 'tl-1',
        offset: 2_010,
      });
      expect(tail).toMatchObject({ text: 'l', next_offset: null });
    });

    it('timeline.append with the same id and other content is a conflict', async () => {
      await client.call('timeline.append', { owner, id: 'tl-2', kind: 'note', at: 5, text: 'first' });
      expect(
        await client.call('timeline.append', { owner, id: 'tl-2', kind: 'note', at: 5, text: 'first' }),
      ).toMatchObject({
        duplicate: true,
      });
      expect(
        (
          await codeOf(
            client.call('timeline.append', { owner, id: 'tl-2', kind: 'note', at: 5, text: 'second' }),
          )
        ).code,
      ).toBe('EVENT_CONFLICT');
    });

    it('bad input gets a structured error naming the field, and the server keeps serving', async () => {
      expect((await codeOf(client.call('memory.nope', {}))).code).toBe('UNKNOWN_METHOD');
      const missingOwner = await codeOf(client.call('memory.recall', { query: 'x' }));
      expect(missingOwner.code).toBe('INVALID_PARAMS');
      expect(JSON.stringify(missingOwner.data)).toContain('"path":"owner"');
      const wrongType = await codeOf(client.call('memory.recall', { owner, query: 'x', limit: 'ten' }));
      expect(JSON.stringify(wrongType.data)).toContain('"path":"limit"');
      const tooMany = await codeOf(
        client.call('memory.events.ingest', {
          owner,
          events: Array.from({ length: 1_001 }, (_, i) => ({ event_id: `n${i}` })),
        }),
      );
      expect(tooMany.code).toBe('INVALID_PARAMS');
      expect(JSON.stringify(tooMany.data)).toContain('"path":"events"');
      // Regression for issue 8: arrays in params have maxima, never "too many SQL variables".
      const manyKinds = await codeOf(
        client.call('memory.recall', {
          owner,
          query: 'x',
          kinds: Array.from({ length: 40_000 }, () => 'event'),
        }),
      );
      expect(manyKinds.code).toBe('INVALID_PARAMS');
      expect(JSON.stringify(manyKinds.data)).toContain('"path":"kinds"');
      const manyIds = await codeOf(
        client.call('memory.evidence.get', { owner, ids: Array.from({ length: 40_000 }, (_, i) => `e${i}`) }),
      );
      expect(manyIds.code).toBe('INVALID_PARAMS');
      expect(JSON.stringify(manyIds.data)).toContain('"path":"ids"');
      const tooLong = await client.call<{ rejected: Array<{ code: string; message: string }> }>(
        'memory.events.ingest',
        {
          owner,
          events: [{ event_id: 'big', kind: 'note', role: 'system', at: 1, text: 'y'.repeat(32_001) }],
        },
      );
      expect(tooLong.rejected[0]?.code).toBe('EVENT_INVALID');
      expect(tooLong.rejected[0]?.message).toMatch(/text/);
      expect((await codeOf(client.call('timeline.read', { owner, id: 'nope' }))).code).toBe('NOT_FOUND');
      expect((await client.call<{ status: string }>('health')).status).toBe('ok');
    });

    it('redacts secrets before storing and indexing', async () => {
      const key = ['sk', 'proj', 'Abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH'].join('-');
      await client.call('memory.events.ingest', {
        owner,
        events: [
          {
            event_id: 'sec-1',
            kind: 'user_message',
            role: 'user',
            at: 10,
            text: `my key is ${key} and 手机 13812345678`,
          },
          { event_id: 'sec-2', kind: 'user_message', role: 'user', at: 11, text: key },
        ],
      });
      const evidence = await client.call<{ items: Array<{ id: string; text: string; redacted: boolean }> }>(
        'memory.evidence.get',
        {
          owner,
          ids: ['sec-1', 'sec-2'],
        },
      );
      const [one, two] = evidence.items;
      expect(one?.text).not.toContain(key);
      expect(one?.text).toContain('[redacted:api_key]');
      expect(one?.text).not.toContain('13812345678');
      expect(one?.redacted).toBe(true);
      expect(two?.text).toBe('[redacted:api_key]');
      const found = await recall(key.slice(8, 30));
      expect(ids(found)).not.toContain('sec-1');
    });
  });

  describe('HTTP of a started server', () => {
    it('regression for issue 8: is closed by default: a token in the data directory, a minimal /health', async () => {
      expect(server.httpTokenFile).toBe(join(dir, 'http-token'));
      expect(statSync(join(dir, 'http-token')).mode & 0o777).toBe(0o600);
      const url = server.http?.url ?? '';
      const rpc = await fetch(`${url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 1, method: 'health' }),
      });
      expect(rpc.status).toBe(401);
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', version: VERSION });
      const authorization = `Bearer ${await readHttpToken(dir)}`;
      const full = await fetch(`${url}/health`, { headers: { authorization } });
      expect(await full.json()).toMatchObject({ status: 'ok', version: VERSION, data_dir: dir });
    });
  });
});
