// The inspector's routes over HTTP: static files without a token and with a strict CSP, the page's calls
// limited to reads and the suggestion decisions, and mnemo serve's own wiring.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTempDirs } from '../../test/helpers/temp.js';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { tokenAuthenticator } from '../protocol/http-guard.js';
import { readHttpToken } from '../protocol/http-token.js';
import { createHttpApp } from '../protocol/http.js';
import { defineMethod, type MethodDef, type MethodTable } from '../protocol/method.js';
import { startServer, type RunningServer } from '../server.js';
import { CONTENT_SECURITY_POLICY, createInspector } from './inspector.js';
import { pageMayCall } from './page-policy.js';

const TOKEN = 'inspector-unit-token-0123456789';
const BASE = 'http://127.0.0.1:7420';
const OWN_ORIGIN = { origin: BASE };

function tableOf(calls: string[]): MethodTable {
  const method = (name: string, access: MethodDef['access']): MethodDef =>
    defineMethod({
      name,
      summary: name,
      access,
      owner: 'none',
      params: z.object({ ack: z.string().optional(), note: z.string().optional() }),
      result: z.object({}).loose(),
      handler: async (p) => {
        calls.push(p.ack === undefined ? name : `${name} ack`);
        return { done: name };
      },
    });
  return new Map(
    [
      method('health', 'read'),
      method('memory.events.ingest', 'write'),
      method('memory.observation.claim', 'background'),
      method('memory.suggestions.decide', 'write'),
      method('memory.organize.notices', 'write'),
    ].map((m) => [m.name, m]),
  );
}

function appOf(calls: string[] = [], auth: 'token' | 'off' = 'token') {
  const table = tableOf(calls);
  return createHttpApp({
    table,
    authenticate: auth === 'off' ? 'off' : tokenAuthenticator(TOKEN),
    host: '127.0.0.1',
    port: 7420,
    maxBodyBytes: 64 * 1024,
    maxResponseBytes: 1024 * 1024,
    log: silentLogger(),
    pages: createInspector({ table, auth }),
  });
}

const rpc = (method: string, params: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
  body: JSON.stringify({ id: 1, method, params }),
});

describe('the inspector over HTTP', () => {
  const app = appOf();

  it('serves its files without a token, and nothing else without one', async () => {
    for (const path of ['/', '/inspector/app.js', '/inspector/app.css', '/inspector/favicon.svg']) {
      expect((await app.request(`${BASE}${path}`)).status, path).toBe(200);
    }
    expect((await app.request(`${BASE}/inspector/missing.js`)).status).toBe(401);
    expect(
      (await app.request(`${BASE}/inspector/missing.js`, { headers: { authorization: `Bearer ${TOKEN}` } }))
        .status,
    ).toBe(404);
    expect((await app.request(`${BASE}/rpc`, { method: 'POST', body: '{}' })).status).toBe(401);
    // The Host and Origin checks still come first.
    expect((await app.request('http://attacker.example:7420/')).status).toBe(403);
  });

  it('serves the page with a strict Content-Security-Policy', async () => {
    const page = await app.request(`${BASE}/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("require-trusted-types-for 'script'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|\*/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const script = await app.request(`${BASE}/inspector/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('holds no data and no token: only the method names and how this server authenticates', async () => {
    const html = await (await app.request(`${BASE}/`)).text();
    expect(html).toContain(
      '<meta name="mnemo-methods" content="health:read memory.events.ingest:write memory.observation.claim:background memory.suggestions.decide:write memory.organize.notices:write" />',
    );
    expect(html).toContain('<meta name="mnemo-auth" content="token" />');
    expect(html).not.toContain(TOKEN);
    // No script but mnemo's own file, and nothing from elsewhere.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/inspector/app.js">']);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const off = await (await appOf([], 'off').request(`${BASE}/`)).text();
    expect(off).toContain('<meta name="mnemo-auth" content="off" />');
  });

  it('refuses every write from a page but the decisions', async () => {
    const calls: string[] = [];
    const paged = appOf(calls);
    const status = async (method: string, params: unknown, headers: Record<string, string> = OWN_ORIGIN) =>
      (await paged.request(`${BASE}/rpc`, rpc(method, params, headers))).status;
    expect(await status('health', {})).toBe(200);
    expect(await status('memory.suggestions.decide', {})).toBe(200);
    expect(await status('memory.organize.notices', {})).toBe(200);
    expect(await status('memory.organize.notices', { ack: 'job_1' })).toBe(403);
    expect(await status('memory.events.ingest', {})).toBe(403);
    expect(await status('memory.observation.claim', {})).toBe(403);
    expect(await status('memory.nope', {})).toBe(404);
    expect(calls).toEqual(['health', 'memory.suggestions.decide', 'memory.organize.notices']);
    // Clients that are not pages (no Origin) are not limited.
    expect(await status('memory.events.ingest', {}, {})).toBe(200);
    expect(await status('memory.organize.notices', { ack: 'job_1' }, {})).toBe(200);
    const refused = await paged.request(`${BASE}/rpc`, rpc('memory.events.ingest', {}, OWN_ORIGIN));
    expect(await refused.json()).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('keeps a page away from /mcp', async () => {
    const mcpApp = createHttpApp({
      table: tableOf([]),
      authenticate: tokenAuthenticator(TOKEN),
      host: '127.0.0.1',
      port: 7420,
      maxBodyBytes: 64 * 1024,
      maxResponseBytes: 1024 * 1024,
      log: silentLogger(),
      pages: createInspector({ table: tableOf([]), auth: 'token' }),
      mcp: async () => new Response('{}', { status: 200 }),
    });
    const post = (headers: Record<string, string>) =>
      mcpApp.request(`${BASE}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    expect((await post(OWN_ORIGIN)).status).toBe(403);
    expect((await post({})).status).toBe(200);
  });

  it('says which calls a page may send', () => {
    const def = (name: string, access: MethodDef['access']) => ({ name, access });
    expect(pageMayCall(def('memory.recall', 'read'), {})).toBe(true);
    expect(pageMayCall(def('memory.revoke', 'write'), {})).toBe(false);
    expect(pageMayCall(def('memory.suggest', 'write'), {})).toBe(false);
    expect(pageMayCall(def('memory.suggestions.decide', 'write'), {})).toBe(true);
    expect(pageMayCall(def('memory.organize.notices', 'write'), undefined)).toBe(true);
    expect(pageMayCall(def('memory.organize.notices', 'write'), { ack: 'x' })).toBe(false);
    expect(pageMayCall(def('memory.organize.notices', 'write'), [])).toBe(false);
    expect(pageMayCall(undefined, {})).toBe(true);
  });
});

describe('mnemo serve', () => {
  const temp = createTempDirs();
  let server: RunningServer;
  beforeAll(async () => {
    const dir = temp.make();
    const config = loadConfig({ dataDir: dir, http: '127.0.0.1:0', observer: 'external' }, {});
    server = await startServer(config, silentLogger());
  });
  afterAll(async () => {
    await server.close();
    temp.cleanup();
  });

  it('serves the inspector at / with every method of its table, and limits what the page sends', async () => {
    const url = server.http?.url ?? '';
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const html = await page.text();
    for (const name of server.table.keys()) expect(html).toContain(`${name}:`);
    const token = (await readHttpToken(server.service.config.dataDir)) ?? '';
    const ingest = await fetch(`${url}/rpc`, {
      ...rpc('memory.events.ingest', { owner: 'user:x', events: [] }, { origin: url }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, origin: url },
    });
    expect(ingest.status).toBe(403);
  });
});
