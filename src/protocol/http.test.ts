import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createGates, createTestTable } from '../../test/helpers/transport-fixtures.js';
import { isMemoryError } from '../errors.js';
import { silentLogger } from '../log.js';
import { createHttpApp, startHttpServer, type HttpAppOptions, type HttpServer } from './http.js';

const TOKEN = 'test-token-0123456789abcdef';

const appWith = (overrides: Partial<HttpAppOptions> = {}) =>
  createHttpApp({ table: createTestTable(), maxBodyBytes: 1024, log: silentLogger(), ...overrides });

const rpc = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('http app (in process)', () => {
  const app = appWith();

  it('answers /rpc with the socket envelope and status 200', async () => {
    const res = await app.request(
      '/rpc',
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
    const res = await app.request('/rpc', rpc(body));
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ ok: false, error: { code } });
  });

  it('names the bad field of invalid params', async () => {
    const res = await app.request('/rpc', rpc({ id: 1, method: 'echo', params: { owner: 'u1', text: 5 } }));
    expect(await res.json()).toMatchObject({ error: { data: { issues: [{ path: 'text' }] } } });
  });

  it('accepts any content type whose body parses', async () => {
    const res = await app.request('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ id: 1, method: 'health' }),
    });
    expect(res.status).toBe(200);
  });

  it('refuses bodies over maxBodyBytes, declared or not', async () => {
    const big = JSON.stringify({ id: 1, method: 'echo', params: { owner: 'u1', text: 'x'.repeat(2000) } });
    const res = await app.request('/rpc', rpc(big));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ id: null, ok: false, error: { code: 'REQUEST_TOO_LARGE' } });
    const declared = await app.request(
      '/rpc',
      rpc({ id: 1, method: 'health' }, { 'content-length': '4096' }),
    );
    expect(declared.status).toBe(413);
    const stream = new Blob([big]).stream();
    const streamed = await app.request('/rpc', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('serves GET /health as the health result', async () => {
    const res = await app.request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with a NOT_FOUND envelope', async () => {
    const res = await app.request('/nowhere');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('requires the bearer token on every route when one is set', async () => {
    const guarded = appWith({ token: TOKEN });
    for (const path of ['/health', '/rpc', '/nowhere']) {
      const res = await guarded.request(path, { method: path === '/rpc' ? 'POST' : 'GET' });
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
      expect((await guarded.request('/health', { headers: { authorization } })).status).toBe(401);
    }
    const ok = await guarded.request(
      '/rpc',
      rpc({ id: 1, method: 'health' }, { authorization: `Bearer ${TOKEN}` }),
    );
    expect(ok.status).toBe(200);
  });
});

describe('http server', () => {
  const servers: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('refuses a public host without a token', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      const error = await startHttpServer({
        host,
        port: 0,
        table: createTestTable(),
        maxBodyBytes: 1024,
        log: silentLogger(),
      }).catch((e: unknown) => e);
      expect(isMemoryError(error) && error.code).toBe('HTTP_TOKEN_REQUIRED');
    }
  });

  it('serves real HTTP on an ephemeral port, with the token', async () => {
    const server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      table: createTestTable(),
      maxBodyBytes: 1024,
      log: silentLogger(),
    });
    servers.push(server);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const res = await fetch(
      `${server.url}/rpc`,
      rpc({ id: 1, method: 'echo', params: { owner: 'u', text: 't' } }, auth),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 1, ok: true });
    expect((await fetch(`${server.url}/health`)).status).toBe(401);
    expect(await (await fetch(`${server.url}/health`, { headers: auth })).json()).toEqual({ status: 'ok' });
  });

  it('refuses a chunked body once it grows past the limit', async () => {
    const server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      table: createTestTable(),
      maxBodyBytes: 1024,
      log: silentLogger(),
    });
    servers.push(server);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/rpc`, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // No Content-Length: the server must count the streamed bytes.
      for (let i = 0; i < 4; i++) req.write('x'.repeat(1000));
    });
    expect(status).toBe(413);
  });

  it('finishes running requests on close and refuses new connections', async () => {
    const gates = createGates();
    const server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      table: createTestTable(gates),
      maxBodyBytes: 1024,
      log: silentLogger(),
    });
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
