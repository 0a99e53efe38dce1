// /mcp on the HTTP server: behind the token and the Origin check like every route, stateless (POST only),
// and acting for the owner of the token: the default owner for an all-owners token, a scoped token's one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_LIMITS, loadConfig } from '../src/config.js';
import { createLocalClient } from '../src/local-client.js';
import { silentLogger } from '../src/log.js';
import { createMcpHttpHandler, mcpOwner } from '../src/mcp/http.js';
import type { Authenticate } from '../src/protocol/http-guard.js';
import { readHttpToken } from '../src/protocol/http-token.js';
import { startHttpServer, type HttpServer } from '../src/protocol/http.js';
import { allOwners, type Principal } from '../src/protocol/principal.js';
import { startServer, type RunningServer } from '../src/server.js';
import { EVENTS } from './helpers/fixtures.js';
import { createTempDirs } from './helpers/temp.js';

const OWNER = 'user:me';
const OTHER = 'user:other';
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const temp = createTempDirs();
let server: RunningServer;
let token: string;

beforeAll(async () => {
  const dir = temp.make();
  const config = loadConfig({ dataDir: dir, http: '127.0.0.1:0', observer: 'external', owner: OWNER }, {});
  server = await startServer(config, silentLogger());
  token = (await readHttpToken(dir)) ?? '';
  const local = createLocalClient(server.table);
  await local.call('memory.events.ingest', { owner: OWNER, events: EVENTS });
  const x1 = { event_id: 'x1', kind: 'note', role: 'user', at: 0, text: 'PURPLE-HORSE-42 opens the vault' };
  await local.call('memory.events.ingest', { owner: OTHER, events: [x1] });
});
afterAll(async () => {
  await server.close();
  temp.cleanup();
});

const post = (headers: Record<string, string>, body: unknown = INIT) =>
  fetch(`${server.http?.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });

describe('/mcp', () => {
  it('wants the bearer token and refuses a foreign Origin, like every route', async () => {
    expect((await post(MCP_HEADERS)).status).toBe(401);
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${token}` };
    expect((await post({ ...auth, origin: 'http://evil.example' })).status).toBe(403);
    const ok = await post(auth);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'mnemo' } } });
  });

  it('is stateless: GET and DELETE get 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.http?.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('takes the owner from the principal, never from anything a model sends', () => {
    const scoped = (owners: string[]): Principal => ({ kind: 'scoped', name: 't', owners });
    expect(mcpOwner(allOwners('http-token'), OWNER)).toBe(OWNER);
    expect(mcpOwner(scoped([OTHER]), OWNER)).toBe(OTHER);
    expect(mcpOwner(scoped([OWNER, OTHER]), OWNER)).toBeNull();
    expect(mcpOwner(scoped(['team:acme/*']), OWNER)).toBeNull();
  });
});

describe('/mcp with scoped tokens', () => {
  const TOKENS: Record<string, Principal> = {
    'token-for-user-other-0001': { kind: 'scoped', name: 'other', owners: [OTHER] },
    'token-for-two-owners-0002': { kind: 'scoped', name: 'two', owners: [OWNER, OTHER] },
  };
  const authenticate: Authenticate = async (t) => TOKENS[t] ?? null;
  let http: HttpServer;
  beforeAll(async () => {
    http = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      authenticate,
      table: server.table,
      maxBodyBytes: 1024 * 1024,
      maxConnections: 16,
      ...HTTP_LIMITS,
      log: silentLogger(),
      mcp: createMcpHttpHandler({
        table: server.table,
        defaultOwner: OWNER,
        maxBodyBytes: 1024 * 1024,
        log: silentLogger(),
      }),
    });
  });
  afterAll(() => http.close());

  const clientFor = async (bearer: string) => {
    const client = new Client({ name: 't', version: '1' });
    const headers = { authorization: `Bearer ${bearer}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers } }),
    );
    return client;
  };

  it("a token for one owner acts for that owner and sees nobody else's memory", async () => {
    const client = await clientFor('token-for-user-other-0001');
    const found = await client.callTool({ name: 'recall', arguments: { query: 'PURPLE-HORSE-42' } });
    expect(found.structuredContent).toMatchObject({ items: [{ id: 'x1' }] });
    const mine = await client.callTool({ name: 'recall', arguments: { query: 'RB-2026-0917' } });
    expect(mine.structuredContent).toMatchObject({ items: [] });
    const status = await client.callTool({ name: 'status', arguments: {} });
    expect(status.structuredContent).toMatchObject({ owner: OTHER, via: 'http' });
    await client.close();
  });

  it('a token for several owners is refused: it cannot say which one a model means', async () => {
    await expect(clientFor('token-for-two-owners-0002')).rejects.toThrow(/403|exactly one owner/);
  });
});

it('an MCP answer over maxResponseBytes is replaced by RESPONSE_TOO_LARGE', async () => {
  const options = { table: server.table, defaultOwner: OWNER, maxBodyBytes: 65_536, log: silentLogger() };
  const small = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    authenticate: 'off',
    table: server.table,
    maxBodyBytes: 65_536,
    maxConnections: 16,
    ...HTTP_LIMITS,
    maxResponseBytes: 2_000,
    log: silentLogger(),
    mcp: createMcpHttpHandler(options),
  });
  const send = (body: unknown) =>
    fetch(`${small.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(body) });
  expect((await send(INIT)).status).toBe(200);
  const list = await send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  expect(list.status).toBe(500);
  expect(await list.json()).toMatchObject({ ok: false, error: { code: 'RESPONSE_TOO_LARGE' } });
  await small.close();
});
