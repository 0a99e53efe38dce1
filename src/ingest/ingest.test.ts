import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fake } from '../../test/fixtures/redaction/corpus.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import type { MemoryService } from '../service.js';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { tokenize } from '../text/tokenize.js';
import { CONTEXT_TOKENS, ingestEvents, type IngestDeps } from './ingest.js';
import { getEventsByIds } from './store.js';
import { indexTerms, matchRefs } from '../../test/helpers/index-match.js';
import { sqlFirst, sqlRows } from '../../test/helpers/sql.js';

describe.each(ENGINES)('on %s', (engine) => {
  let handle: TestService;
  let service: MemoryService;
  let deps: IngestDeps;

  beforeEach(async () => {
    handle = await openTestService(engine);
    service = handle.service;
    deps = { driver: service.driver, redactor: service.redactor, salt: service.salt };
  });
  afterEach(() => handle.close());

  const ev = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
    event_id: id,
    kind: 'user_message',
    role: 'user',
    at: '2026-09-17T10:00:00+08:00',
    text,
    ...extra,
  });

  describe('ingestEvents', () => {
    it('stores valid events, converts times to epoch ms, and indexes them', async () => {
      const out = await ingestEvents(deps, 'o1', [
        ev('a', 'hello 世界'),
        ev('b', 'second', { at: 1_700_000_000_000 }),
      ]);
      expect(out).toMatchObject({ accepted: 2, duplicates: 0, rejected: [] });
      const [a, b] = await getEventsByIds(service.driver, 'o1', ['a', 'b']);
      expect(a?.at).toBe(Date.parse('2026-09-17T02:00:00Z'));
      expect(b?.at).toBe(1_700_000_000_000);
      const docs = await sqlRows(
        service.driver,
        `SELECT ref FROM search_docs WHERE owner = 'o1' ORDER BY ref`,
      );
      expect(docs).toEqual([{ ref: 'a' }, { ref: 'b' }]);
    });

    it('invariant: EVENT_CONFLICT leaves the stored event untouched', async () => {
      await ingestEvents(deps, 'o1', [ev('a', 'original')]);
      const out = await ingestEvents(deps, 'o1', [
        ev('a', 'changed'),
        ev('a', 'original', { role: 'agent' }),
      ]);
      expect(out.rejected.map((r) => r.code)).toEqual(['EVENT_CONFLICT', 'EVENT_CONFLICT']);
      expect(out.accepted).toBe(0);
      const [a] = await getEventsByIds(service.driver, 'o1', ['a']);
      expect(a).toMatchObject({ text: 'original', role: 'user' });
    });

    it('treats a repeated id within one call like a repeat across calls', async () => {
      const out = await ingestEvents(deps, 'o1', [ev('a', 'x'), ev('a', 'x'), ev('a', 'y')]);
      expect(out).toMatchObject({ accepted: 1, duplicates: 1 });
      expect(out.rejected.map((r) => [r.event_id, r.code])).toEqual([['a', 'EVENT_CONFLICT']]);
    });

    it('keeps each owner’s number, document count and ordinals across calls', async () => {
      await ingestEvents(deps, 'o1', [ev('a', 'one'), ev('b', 'two')]);
      await ingestEvents(deps, 'o2', [ev('a', 'other owner')]);
      await ingestEvents(deps, 'o1', [ev('c', 'three'), ev('a', 'one')]);
      const rows = await sqlRows(
        service.driver,
        'SELECT owner, owner_key AS key, docs, tokens, last_ord AS ord FROM search_owners ORDER BY owner',
      );
      expect(rows).toEqual([
        { owner: 'o1', key: 1, docs: 3, tokens: 3, ord: 3 },
        { owner: 'o2', key: 2, docs: 1, tokens: 2, ord: 1 },
      ]);
      const ords = await sqlRows(
        service.driver,
        `SELECT ref, ord FROM search_docs WHERE owner = 'o1' ORDER BY ord`,
      );
      expect(ords).toEqual([
        { ref: 'a', ord: 1 },
        { ref: 'b', ord: 2 },
        { ref: 'c', ord: 3 },
      ]);
    });

    it('keeps the same event id apart for different owners', async () => {
      await ingestEvents(deps, 'o1', [ev('a', 'one')]);
      const out = await ingestEvents(deps, 'o2', [ev('a', 'two')]);
      expect(out.accepted).toBe(1);
    });

    it('rejects invalid events one by one, naming the field', async () => {
      const out = await ingestEvents(deps, 'o1', [
        ev('ok', 'fine'),
        { event_id: 'k', kind: 'chat', role: 'user', at: 1, text: 'x' },
        { event_id: 'r', kind: 'note', role: 'robot', at: 1, text: 'x' },
        { event_id: 't', kind: 'note', role: 'user', at: '17/09/2026', text: 'x' },
        { kind: 'note', role: 'user', at: 1, text: 'x' },
        { event_id: 'm', kind: 'note', role: 'user', at: 1, text: 'x', meta: 'not an object' },
        null,
      ]);
      expect(out.accepted).toBe(1);
      const byId = Object.fromEntries(out.rejected.map((r) => [r.event_id ?? 'null', r.message]));
      expect(byId.k).toMatch(/events\[1\]\.kind/);
      expect(byId.r).toMatch(/events\[2\]\.role/);
      expect(byId.t).toMatch(/events\[3\]\.at/);
      expect(byId.m).toMatch(/events\[5\]\.meta/);
      expect(out.rejected.filter((r) => r.event_id === null)).toHaveLength(2);
      expect(out.rejected.every((r) => r.code === 'EVENT_INVALID')).toBe(true);
    });

    it('redacts text and meta before storing, and records findings without the secret', async () => {
      const pem = [
        '-----BEGIN RSA PRIVATE KEY-----',
        'MIIEowIBAAKCAQEAx1y2z3',
        '-----END RSA PRIVATE KEY-----',
      ].join('\n');
      await ingestEvents(deps, 'o1', [
        ev('s', `deploy with\n${pem}\nthen call 13912345678`, {
          meta: { note: 'password=hunter2hunter2', n: 3 },
        }),
      ]);
      const [s] = await getEventsByIds(service.driver, 'o1', ['s']);
      expect(s?.text).not.toContain('MIIEowIBAAKCAQEAx1y2z3');
      expect(s?.text).toContain('[redacted:private_key]');
      expect(s?.text).toContain('[redacted:phone]');
      expect(JSON.stringify(s?.meta)).not.toContain('hunter2hunter2');
      expect(s?.meta).toMatchObject({ n: 3 });
      expect(s?.redacted).toBe(true);
      const row = await sqlFirst<{ redactions: string }>(
        service.driver,
        `SELECT redactions FROM events WHERE event_id = 's'`,
      );
      expect(row?.redactions).not.toContain('hunter2');
      expect(row?.redactions).not.toContain('13912345678');
      expect(row?.redactions).toContain('private_key');
    });

    it('does not index the redacted secret', async () => {
      await ingestEvents(deps, 'o1', [ev('p', 'call me at 13912345678 tomorrow')]);
      expect(await matchRefs(service.driver, 'o1', '13912345678')).toEqual([]);
      expect(await matchRefs(service.driver, 'o1', 'tomorrow')).toEqual(['p']);
    });

    it('indexes the end of the previous turn of the same session as context, from the batch or the store', async () => {
      await ingestEvents(deps, 'o1', [
        ev('q', 'How are your pets doing?', { session_id: 's1' }),
        ev('x', 'Unrelated words about taxes', { session_id: 's2' }),
        ev('a', 'They are good, we got another cat', { session_id: 's1', role: 'agent' }),
        ev('n', 'No session here'),
      ]);
      await ingestEvents(deps, 'o1', [
        ev('b', 'Bailey sleeps all day', { session_id: 's1' }),
        ev('m', 'Nor here'),
      ]);
      const inContext = async (word: string) =>
        (await matchRefs(service.driver, 'o1', tokenize(word)[0] ?? '', 'context')).sort();
      expect(await inContext('pets')).toEqual(['a']);
      expect(await inContext('cat')).toEqual(['b']);
      expect(await inContext('taxes')).toEqual([]);
      expect(await inContext('session')).toEqual([]);
      const roles = await sqlRows(
        service.driver,
        `SELECT ref, role FROM search_docs WHERE ref IN ('q', 'a')`,
      );
      expect(roles).toEqual(
        expect.arrayContaining([
          { ref: 'q', role: 'user' },
          { ref: 'a', role: 'agent' },
        ]),
      );
    });

    it('keeps only the last CONTEXT_TOKENS tokens of a long previous turn', async () => {
      const long = `${'filler '.repeat(CONTEXT_TOKENS - 1)}omega`;
      await ingestEvents(deps, 'o1', [
        ev('p', `alpha ${long}`, { session_id: 's' }),
        ev('r', 'reply', { session_id: 's' }),
      ]);
      const count = async (word: string) => (await matchRefs(service.driver, 'o1', word, 'context')).length;
      expect(await count('omega')).toBe(1);
      expect(await count('filler')).toBe(1);
      expect(await count('alpha')).toBe(0);
    });
  });

  /** `{a: {a: … {} }}`, `depth` levels of objects, built without recursion. */
  const nest = (depth: number): Record<string, unknown> => {
    let meta: Record<string, unknown> = {};
    for (let i = 1; i < depth; i++) meta = { a: meta };
    return meta;
  };

  describe('regression for issue 8: ids are ids / id 只是 id', () => {
    it('limits ids to [A-Za-z0-9._:@/#-] and 200 characters, naming the field', async () => {
      const out = await ingestEvents(deps, 'o1', [
        ev('ok:task/1#2-a.b_c', 'fine', { session_id: 'user@host', task_id: 'T-1' }),
        ev('has space', 'x'),
        ev('b', 'x', { session_id: 'a'.repeat(201) }),
        ev('c', 'x', { task_id: 'password="x"' }),
        ev('d', 'x', { session_id: '会话' }),
      ]);
      expect(out.accepted).toBe(1);
      expect(out.rejected.map((r) => [r.event_id, r.message.replace(/:.*/, '')])).toEqual([
        [null, 'events[1].event_id'],
        ['b', 'events[2].session_id'],
        ['c', 'events[3].task_id'],
        ['d', 'events[4].session_id'],
      ]);
      expect(out.rejected.every((r) => r.code === 'EVENT_INVALID')).toBe(true);
    });

    it('an id that is a secret is rejected and never stored', async () => {
      const secrets = ['13812345678', fake.github, 'bob@example.com', fake.residentId, 'password:hunter2x'];
      const out = await ingestEvents(deps, 'o1', [
        ev('e0', 'phone as session', { session_id: secrets[0] }),
        ev(secrets[1] ?? '', 'token as event id'),
        ev('e2', 'e-mail as task', { task_id: secrets[2] }),
        ev('e3', 'ID number as session', { session_id: secrets[3] }),
        ev(secrets[4] ?? '', 'password in the id'),
        ev('e5', 'stored', { session_id: 'sess-2026-09-17', task_id: 't042' }),
      ]);
      expect(out.accepted).toBe(1);
      expect(out.rejected.map((r) => [r.event_id, r.message.replace(/: an id .*\(found: /, ' ')])).toEqual([
        ['e0', 'events[0].session_id phone)'],
        [null, 'events[1].event_id token)'],
        ['e2', 'events[2].task_id email)'],
        ['e3', 'events[3].session_id id_number)'],
        [null, 'events[4].event_id password)'],
      ]);
      const stored = JSON.stringify([
        out.rejected,
        await sqlRows(service.driver, 'SELECT * FROM events'),
        await sqlRows(service.driver, 'SELECT * FROM search_docs'),
        await indexTerms(service.driver),
      ]);
      for (const secret of secrets) expect(stored).not.toContain(secret);
      expect(stored).not.toContain('13812345678'.slice(3));
    });

    it('timeline.append ids take the same path / timeline.append 的 id 同样检查', async () => {
      const client = createLocalClient(createMethodTable(service));
      const append = (params: Record<string, unknown>) =>
        client.call('timeline.append', { owner: 'o1', kind: 'note', text: 'hi', ...params });
      await expect(append({ id: 'n1', source: { session_id: '13812345678' } })).rejects.toMatchObject({
        code: 'EVENT_INVALID',
        message: expect.stringMatching(/^events\[0\]\.session_id: .*found: phone/),
      });
      await expect(append({ id: 'n2', source: { task_id: 'has space' } })).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
      });
      await expect(append({ id: 'n3', source: { session_id: 's1', task_id: 't1' } })).resolves.toMatchObject({
        id: 'n3',
        duplicate: false,
      });
      const rows = await sqlRows<{ event_id: string; session_id: string }>(
        service.driver,
        'SELECT event_id, session_id FROM events',
      );
      expect(rows).toEqual([{ event_id: 'n3', session_id: 's1' }]);
    });
  });

  describe("regression for issue 8: deep or large meta is that event's EVENT_INVALID / 过深过大的 meta", () => {
    it('takes 32 levels and 64 KB, rejects one more of either and stores the other events', async () => {
      const big = (bytes: number) => ({ note: '密'.repeat(Math.floor((bytes - 12) / 3)) });
      const out = await ingestEvents(deps, 'o1', [
        ev('deep32', 'ok', { meta: nest(32) }),
        ev('deep33', 'x', { meta: nest(33) }),
        ev('deep100k', 'x', { meta: nest(100_000) }),
        ev('big64k', 'ok', { meta: big(65_536) }),
        ev('big65k', 'x', { meta: big(65_540) }),
        ev('plain', 'ok'),
      ]);
      expect(out.accepted).toBe(3);
      expect(out.rejected.map((r) => [r.event_id, r.code, r.message])).toEqual([
        ['deep33', 'EVENT_INVALID', 'events[1].meta: meta nests at most 32 levels deep'],
        ['deep100k', 'EVENT_INVALID', 'events[2].meta: meta nests at most 32 levels deep'],
        ['big65k', 'EVENT_INVALID', 'events[4].meta: meta is at most 65536 bytes of JSON (UTF-8)'],
      ]);
      const [deep] = await getEventsByIds(service.driver, 'o1', ['deep32']);
      expect(JSON.stringify(deep?.meta)).toBe(JSON.stringify(nest(32)));
    });
  });
});
