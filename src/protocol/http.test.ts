import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGates, createTestTable } from '../../test/helpers/transport-fixtures.js';
import { isMemoryError, MemoryError } from '../errors.js';
import { silentLogger } from '../log.js';
import { tokenAuthenticator, type Authenticate } from './http-guard.js';
import {
  createHttpApp,
  startHttpServer,
  type HttpAppOptions,
  type HttpServer,
  type HttpServerOptions,
} from './http.js';
import { defineMethod, type MethodTable } from './method.js';
import type { Principal } from './principal.js';

const TOKEN = 'test-token-0123456789abcdef';
const BASE = 'http://127.0.0.1:7420';
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** The test table, plus a health that says who asked and a write that records what reached it. */
function tableWith(writes: string[] = []): MethodTable {
  const table = new Map(createTestTable());
  table.set(
    'health',
    defineMethod({
      name: 'health',
      summary: 'liveness and the caller',
      access: 'read',
      owner: 'none',
      params: z.object({}),
      result: z.object({}).loose(),
      handler: async (_p, ctx) => ({ status: 'ok', version: '9.9.9', principal: ctx.principal.name }),
    }),
  );
  table.set(
    'note',
    defineMethod({
      name: 'note',
      summary: 'records a write',
      access: 'write',
      owner: 'param',
      params: z.object({ owner: z.string(), text: z.string() }),
      result: z.object({}),
      handler: async (p) => {
        writes.push(p.text);
        return {};
      },
    }),
  );
  return table;
}

const appWith = (overrides: Partial<HttpAppOptions> = {}) =>
  createHttpApp({
    table: tableWith(),
    authenticate: tokenAuthenticator(TOKEN),
    host: '127.0.0.1',
    port: 7420,
    maxBodyBytes: 1024,
    maxResponseBytes: 64 * 1024,
    log: silentLogger(),
    ...overrides,
  });

const rpc = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...AUTH, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const HEALTH = { id: 1, method: 'health' };

describe('http app (in process)', () => {
  const app = appWith();

  it('answers /rpc with the socket envelope and status 200', async () => {
    const res = await app.request(
      `${BASE}/rpc`,
      rpc({ id: 7, method: 'echo', params: { owner: 'u1', text: 'hi' } }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 7, ok: true, result: { owner: 'u1', text: 'hi' } });
  });

  it.each([
    [{ id: 1, method: 'nope' }, 404, 'UNKNOWN_METHOD'],
    [{ id: 2, method: 'echo', params: { text: 'x' } }, 400, 'INVALID_PARAMS'],
    [{ id: 3, method: 'boom' }, 500, 'INTERNAL'],
    [{ method: 42 }, 400, 'INVALID_REQUEST'],
    ['{"id":1,', 400, 'INVALID_JSON'],
    ['', 400, 'INVALID_JSON'],
  ])('maps %j to HTTP %i %s', async (body, status, code) => {
    const res = await app.request(`${BASE}/rpc`, rpc(body));
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ ok: false, error: { code } });
  });

  it('names the bad field of invalid params', async () => {
    const res = await app.request(
      `${BASE}/rpc`,
      rpc({ id: 1, method: 'echo', params: { owner: 'u1', text: 5 } }),
    );
    expect(await res.json()).toMatchObject({ error: { data: { issues: [{ path: 'text' }] } } });
  });

  it('regression for issue 8: accepts only application/json bodies on /rpc', async () => {
    const body = JSON.stringify(HEALTH);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'json']) {
      const res = await app.request(`${BASE}/rpc`, rpc(body, { 'content-type': type }));
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
    const untyped = await app.request(`${BASE}/rpc`, { method: 'POST', headers: AUTH, body });
    expect(untyped.status).toBe(415);
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      expect((await app.request(`${BASE}/rpc`, rpc(body, { 'content-type': type }))).status).toBe(200);
    }
  });

  it('regression for issue 8: refuses an Origin that is not the server’s own', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:7421', 'file://', 'x']) {
      const res = await app.request(`${BASE}/rpc`, rpc(HEALTH, { origin }));
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    for (const origin of ['http://127.0.0.1:7420', 'http://localhost:7420']) {
      expect((await app.request(`${BASE}/rpc`, rpc(HEALTH, { origin }))).status).toBe(200);
    }
  });

  it('regression for issue 8: refuses a Host that is not the bound address, localhost or allowed', async () => {
    const allowed = appWith({ allowedHosts: ['mnemo.lan', 'box:8080'] });
    const status = async (host: string, path = '/rpc') =>
      (
        await allowed.request(
          `${BASE}${path}`,
          path === '/rpc' ? rpc(HEALTH, { host }) : { headers: { host } },
        )
      ).status;
    for (const host of [
      'evil.example',
      'evil.example:7420',
      '127.0.0.1:7421',
      '127.0.0.1',
      'box',
      'box:8081',
    ]) {
      expect(await status(host)).toBe(403);
    }
    expect(await status('evil.example', '/health')).toBe(403);
    expect(await status('evil.example', '/nowhere')).toBe(403);
    for (const host of [
      '127.0.0.1:7420',
      'localhost:7420',
      'LOCALHOST:7420',
      'mnemo.lan',
      'mnemo.lan:9',
      'box:8080',
    ]) {
      expect(await status(host)).toBe(200);
    }
  });

  it('requires the bearer token on every route but a minimal /health', async () => {
    for (const [path, method] of [
      ['/rpc', 'POST'],
      ['/nowhere', 'GET'],
      ['/health', 'POST'],
    ] as const) {
      const res = await app.request(`${BASE}${path}`, { method });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    }
    for (const authorization of [
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      'Bearer',
      `Bearer ${TOKEN.slice(1)}`,
    ]) {
      expect((await app.request(`${BASE}/rpc`, rpc(HEALTH, { authorization }))).status).toBe(401);
      expect((await app.request(`${BASE}/health`, { headers: { authorization } })).status).toBe(401);
    }
    const anonymous = await app.request(`${BASE}/health`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ status: 'ok', version: '9.9.9' });
    const full = await app.request(`${BASE}/health`, { headers: AUTH });
    expect(await full.json()).toEqual({ status: 'ok', version: '9.9.9', principal: 'http-token' });
  });

  it('calls each method with the principal authenticate() gives the token', async () => {
    const tenant: Principal = { kind: 'scoped', name: 'tenant', owners: ['team:a/*'] };
    const authenticate: Authenticate = async (token) => (token === 'tenant-token-0123456789' ? tenant : null);
    const scoped = appWith({ authenticate });
    const as = { authorization: 'Bearer tenant-token-0123456789' };
    const mine = await scoped.request(
      `${BASE}/rpc`,
      rpc({ id: 1, method: 'echo', params: { owner: 'team:a/x', text: 't' } }, as),
    );
    expect(mine.status).toBe(200);
    const theirs = await scoped.request(
      `${BASE}/rpc`,
      rpc({ id: 2, method: 'echo', params: { owner: 'team:b/x', text: 't' } }, as),
    );
    expect(theirs.status).toBe(403);
    expect(await theirs.json()).toMatchObject({ id: 2, error: { code: 'FORBIDDEN' } });
    const health = await scoped.request(`${BASE}/health`, { headers: as });
    expect(await health.json()).toMatchObject({ principal: 'tenant' });
    expect((await scoped.request(`${BASE}/rpc`, rpc(HEALTH))).status).toBe(401);
  });

  it('answers 503 STORAGE_UNAVAILABLE (retryable) when the store cannot look a token up', async () => {
    const authenticate: Authenticate = async () => {
      throw new MemoryError('STORAGE_UNAVAILABLE', 'the store is down');
    };
    const res = await appWith({ authenticate }).request(`${BASE}/rpc`, rpc(HEALTH));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: { code: 'STORAGE_UNAVAILABLE', retryable: true },
    });
  });

  it('with authentication off, serves every route for all owners without a token', async () => {
    const open = appWith({ authenticate: 'off' });
    const res = await open.request(`${BASE}/rpc`, rpc(HEALTH, { authorization: '' }));
    expect(await res.json()).toMatchObject({ ok: true, result: { principal: 'local' } });
    expect(await (await open.request(`${BASE}/health`)).json()).toMatchObject({ principal: 'local' });
    expect((await open.request(`${BASE}/rpc`, rpc(HEALTH, { origin: 'https://evil.example' }))).status).toBe(
      403,
    );
  });

  it('refuses bodies over maxBodyBytes, declared or not', async () => {
    const big = JSON.stringify({ id: 1, method: 'echo', params: { owner: 'u1', text: 'x'.repeat(2000) } });
    const res = await app.request(`${BASE}/rpc`, rpc(big));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ id: null, ok: false, error: { code: 'REQUEST_TOO_LARGE' } });
    const declared = await app.request(`${BASE}/rpc`, rpc(HEALTH, { 'content-length': '4096' }));
    expect(declared.status).toBe(413);
    const streamed = await app.request(`${BASE}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...AUTH },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('regression for issue 8: replaces an answer over maxResponseBytes with RESPONSE_TOO_LARGE', async () => {
    const small = appWith({ maxResponseBytes: 200 });
    const echo = (text: string) => rpc({ id: 5, method: 'echo', params: { owner: 'u1', text } });
    expect((await small.request(`${BASE}/rpc`, echo('x'.repeat(100)))).status).toBe(200);
    const res = await small.request(`${BASE}/rpc`, echo('x'.repeat(300)));
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      id: 5,
      ok: false,
      error: { code: 'RESPONSE_TOO_LARGE', data: { maxResponseBytes: 200 } },
    });
  });

  it('answers unknown routes with a NOT_FOUND envelope', async () => {
    const res = await app.request(`${BASE}/nowhere`, { headers: AUTH });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});

/** A raw HTTP exchange, so the test sets Host itself and sees what the server does to the connection. */
function exchange(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Writes raw bytes and collects everything until the server closes the connection. */
function rawUntilClosed(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('http server', () => {
  const servers: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  const serve = async (overrides: Partial<HttpServerOptions> = {}): Promise<HttpServer> => {
    const server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      authenticate: tokenAuthenticator(TOKEN),
      table: tableWith(),
      maxBodyBytes: 1024,
      maxResponseBytes: 64 * 1024,
      maxConnections: 64,
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      log: silentLogger(),
      ...overrides,
    });
    servers.push(server);
    return server;
  };

  it('refuses a public host without authentication', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      const error = await serve({ host, authenticate: 'off' }).catch((e: unknown) => e);
      expect(isMemoryError(error) && error.code).toBe('HTTP_TOKEN_REQUIRED');
    }
  });

  it('serves real HTTP on an ephemeral port, with the token', async () => {
    const server = await serve();
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const res = await fetch(
      `${server.url}/rpc`,
      rpc({ id: 1, method: 'echo', params: { owner: 'u', text: 't' } }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 1, ok: true });
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok', version: '9.9.9' });
    const full = await fetch(`${server.url}/health`, { headers: AUTH });
    expect(await full.json()).toMatchObject({ principal: 'http-token' });
    const viaLocalhost = await exchange(`${server.url}/health`, {
      headers: { ...AUTH, host: `localhost:${server.port}` },
    });
    expect(viaLocalhost.status).toBe(200);
  });

  it('regression for issue 8: refuses what a web page can send to the loopback address', async () => {
    const writes: string[] = [];
    const server = await serve({ table: tableWith(writes) });
    const note = (text: string) =>
      JSON.stringify({ id: 1, method: 'note', params: { owner: 'victim', text } });
    const attempts: Array<[Record<string, string>, number]> = [
      // The reported request: a simple cross-site POST, no preflight, no token.
      [{ 'content-type': 'text/plain', origin: 'https://evil.example' }, 403],
      [{ 'content-type': 'text/plain' }, 401],
      [{ 'content-type': 'text/plain', ...AUTH }, 415],
      [{ 'content-type': 'application/json', origin: 'https://evil.example', ...AUTH }, 403],
      // DNS rebinding: the page's own name, resolved to 127.0.0.1.
      [{ 'content-type': 'application/json', host: `evil.example:${server.port}`, ...AUTH }, 403],
    ];
    for (const [headers, status] of attempts) {
      const res = await exchange(`${server.url}/rpc`, { method: 'POST', headers, body: note('x') });
      expect(res.status).toBe(status);
    }
    expect(writes).toEqual([]);
    const ok = await exchange(`${server.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...AUTH },
      body: note('mine'),
    });
    expect(ok.status).toBe(200);
    expect(writes).toEqual(['mine']);
  });

  it('refuses a chunked body once it grows past the limit', async () => {
    const server = await serve();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/rpc`,
        { method: 'POST', headers: { 'content-type': 'application/json', ...AUTH } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      // No Content-Length: the server must count the streamed bytes.
      for (let i = 0; i < 4; i++) req.write('x'.repeat(1000));
    });
    expect(status).toBe(413);
  });

  it('regression for issue 8: closes connections beyond maxConnections', async () => {
    const gates = createGates();
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const server = await serve({ table: createTestTable(gates), maxConnections: 1, log });
    const slow = JSON.stringify({ id: 1, method: 'slow', params: { key: 'k' } });
    const headers = { 'content-type': 'application/json', ...AUTH };
    const first = exchange(`${server.url}/rpc`, { method: 'POST', headers, body: slow });
    await gates.entered('k');
    await expect(exchange(`${server.url}/health`, { headers: AUTH })).rejects.toThrow();
    expect(lines.join('')).toContain('too many connections');
    gates.release('k');
    expect((await first).status).toBe(200);
  });

  it('regression for issue 8: answers 408 and hangs up when headers or a body come too slowly', async () => {
    const server = await serve({ headersTimeoutMs: 50, requestTimeoutMs: 100, keepAliveTimeoutMs: 50 });
    const host = `127.0.0.1:${server.port}`;
    const partialHeaders = await rawUntilClosed(server.port, `POST /rpc HTTP/1.1\r\nHost: ${host}\r\n`);
    expect(partialHeaders).toMatch(/^HTTP\/1\.1 408 /);
    const partialBody = await rawUntilClosed(
      server.port,
      `POST /rpc HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":1,',
    );
    expect(partialBody).toMatch(/^HTTP\/1\.1 408 /);
    // An idle kept-alive connection is closed after keepAliveTimeoutMs.
    const idle = await rawUntilClosed(
      server.port,
      `GET /health HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
    );
    expect(idle).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('finishes running requests on close and refuses new connections', async () => {
    const gates = createGates();
    const server = await serve({ table: createTestTable(gates) });
    const running = fetch(`${server.url}/rpc`, rpc({ id: 1, method: 'slow', params: { key: 'k' } }));
    await gates.entered('k');
    const closed = server.close();
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    gates.release('k');
    const res = await running;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, ok: true, result: { key: 'k' } });
    await closed;
  });
});
