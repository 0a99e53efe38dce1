// Issue 13, the inject routes over real HTTP: GET /v2/memory/requests/:id (the owner from a one-owner token
// or ?owner, checked against the token) and GET /v2/attention (what is unclaimed, for the token's owners),
// behind the bearer token like every route.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { openStore, type InjectKit, type ReopenableStore } from '../../test/helpers/inject.js';
import { HTTP_LIMITS } from '../config.js';
import { silentLogger } from '../log.js';
import { startHttpServer, type HttpServer } from '../protocol/http.js';
import { allOwners, type Principal } from '../protocol/principal.js';

const TOKENS: Record<string, Principal> = {
  'all-owners-token-0001': allOwners('test'),
  'alice-token-000000001': { kind: 'scoped', name: 'alice', owners: ['user:alice'] },
  'acme-token-0000000001': { kind: 'scoped', name: 'acme', owners: ['team:acme/*'] },
};
const [ALL, ALICE, ACME] = Object.keys(TOKENS) as [string, string, string];

describe.each(ENGINES)('inject routes on %s', (engine) => {
  let store: ReopenableStore;
  let kit: InjectKit;
  let http: HttpServer;
  beforeEach(async () => {
    store = await openStore(engine);
    kit = await store.open();
    http = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      authenticate: async (token) => TOKENS[token] ?? null,
      table: kit.table,
      maxBodyBytes: 1024 * 1024,
      maxConnections: 16,
      ...HTTP_LIMITS,
      log: silentLogger(),
      handleOptions: { checkResults: true },
    });
  });
  afterEach(async () => {
    await http.close();
    await store.close();
  });

  const get = async (path: string, token?: string) => {
    const response = await fetch(`${http.url}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const body = (await response.json()) as {
      ok?: boolean;
      result?: Record<string, unknown>;
      error?: { code: string };
    };
    return { status: response.status, body };
  };

  it('GET /v2/memory/requests/:id answers a request for the token’s owner, pending then ready', async () => {
    const pending = await kit.client.call<{ request_id: string }>('memory.recall', {
      owner: 'user:alice',
      query: 'anything',
      wait_ms: 0,
    });
    const path = `/v2/memory/requests/${pending.request_id}`;
    const first = await get(path, ALICE);
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ request_id: pending.request_id, status: expect.any(String) });
    await kit.runtime.idle();
    expect((await get(path, ALICE)).body.result).toMatchObject({ status: 'ready', result: { items: [] } });
    expect((await get(`${path}?owner=user:alice`, ALL)).body.result).toMatchObject({ status: 'ready' });
    expect((await get(path, ALL)).body.error?.code).toBe('INVALID_PARAMS');
    expect(await get(`${path}?owner=user:alice`, ACME)).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    expect(await get(`${path}?owner=team:acme/a`, ACME)).toMatchObject({ status: 404 });
    expect(await get('/v2/memory/requests/rq_unknown', ALICE)).toMatchObject({ status: 404 });
    expect((await get(path)).status).toBe(401);
  });

  it('GET /v2/attention lists what is unclaimed in the inboxes of the token’s owners only', async () => {
    const inject = (owner: string, session: string, text: string) =>
      kit.client.call('memory.inbox.inject', {
        owner,
        session_id: session,
        item: { text, source_role: 'system' },
      });
    await inject('team:acme/a', 's1', 'acme a waits');
    await inject('team:acme/b', 's2', 'acme b waits');
    await inject('team:acmex', 's3', 'not acme');
    await inject('user:alice', 's4', 'alice waits');
    await inject('user:alice', 's5', 'alice claimed');
    await kit.client.call('memory.inbox.claim', { owner: 'user:alice', session_id: 's5' });
    const texts = async (path: string, token: string) => {
      const { status, body } = await get(path, token);
      expect(status).toBe(200);
      return (body.result?.items as Array<{ owner: string; session_id: string; text: string }>).map(
        (i) => `${i.owner}/${i.session_id}: ${i.text}`,
      );
    };
    expect(await texts('/v2/attention', ACME)).toEqual([
      'team:acme/a/s1: acme a waits',
      'team:acme/b/s2: acme b waits',
    ]);
    expect(await texts('/v2/attention', ALICE)).toEqual(['user:alice/s4: alice waits']);
    expect(await texts('/v2/attention', ALL)).toHaveLength(4);
    expect(await texts('/v2/attention?owner=team:acme/b', ACME)).toEqual(['team:acme/b/s2: acme b waits']);
    expect(await texts('/v2/attention?limit=1', ALL)).toHaveLength(1);
    expect(await get('/v2/attention?owner=user:alice', ACME)).toMatchObject({ status: 403 });
    expect((await get('/v2/attention')).status).toBe(401);
  });
});
