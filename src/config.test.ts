import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopback, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('takes defaults, then the environment, then flags', () => {
    const base = loadConfig({}, { HOME: '/h' });
    expect(base.http).toEqual({ host: '127.0.0.1', port: 7420 });
    expect(base.limits).toMatchObject({ maxLineBytes: 1_048_576, idleMs: 5_000, maxConnections: 64 });
    const env = loadConfig({}, { MNEMO_HOME: '/data/m', MNEMO_HTTP: 'off', MNEMO_OWNER: 'user:a' });
    expect(env.dataDir).toBe('/data/m');
    expect(env.socketPath).toBe(join('/data/m', 'mnemo.sock'));
    expect(env.http).toBeNull();
    expect(env.defaultOwner).toBe('user:a');
    const flags = loadConfig(
      { dataDir: '/x', http: '[::1]:9000', socketPath: '/s.sock' },
      { MNEMO_HOME: '/data/m' },
    );
    expect(flags).toMatchObject({ dataDir: '/x', socketPath: '/s.sock', http: { host: '::1', port: 9000 } });
    expect(Object.isFrozen(flags)).toBe(true);
  });

  it('names every bad field', () => {
    expect(() => loadConfig({}, { MNEMO_HTTP: 'nonsense', MNEMO_OBSERVER: 'magic' })).toThrowError(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/http.*observer|observer.*http/s),
      }),
    );
    expect(() => loadConfig({}, { MNEMO_HTTP_TOKEN: 'short' })).toThrowError(/httpToken/);
  });

  it('regression for issue 8: closes HTTP by default; MNEMO_HTTP_AUTH=off only on loopback', () => {
    const base = loadConfig({}, {});
    expect(base).toMatchObject({ httpAuth: 'token', httpAllowedHosts: [] });
    expect(base.httpToken).toBeUndefined();
    expect(base.httpLimits).toMatchObject({
      maxResponseBytes: 16 * 1024 * 1024,
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 30_000,
    });
    const listed = loadConfig({}, { MNEMO_HTTP_ALLOWED_HOSTS: ' Mnemo.LAN, box:8080 ,,[::1]:7420' });
    expect(listed.httpAllowedHosts).toEqual(['mnemo.lan', 'box:8080', '[::1]:7420']);
    expect(() => loadConfig({}, { MNEMO_HTTP_ALLOWED_HOSTS: 'http://x' })).toThrowError(/httpAllowedHosts/);
    expect(loadConfig({}, { MNEMO_HTTP_AUTH: 'off' }).httpAuth).toBe('off');
    expect(loadConfig({ http: '[::1]:0' }, { MNEMO_HTTP_AUTH: 'OFF' }).httpAuth).toBe('off');
    expect(loadConfig({ http: false }, { MNEMO_HTTP_AUTH: 'off' }).httpAuth).toBe('off');
    for (const http of ['0.0.0.0:7420', '192.168.1.10:7420']) {
      expect(() => loadConfig({ http }, { MNEMO_HTTP_AUTH: 'off' })).toThrowError(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(/httpAuth.*loopback/),
        }),
      );
    }
    expect(loadConfig({ http: '0.0.0.0:7420' }, {}).http?.host).toBe('0.0.0.0');
    expect(() => loadConfig({}, { MNEMO_HTTP_AUTH: 'none' })).toThrowError(
      /MNEMO_HTTP_AUTH must be token or off/,
    );
    expect(loadConfig({ url: 'http://127.0.0.1:7420' }, {}).serverUrl).toBe('http://127.0.0.1:7420');
    expect(() => loadConfig({ url: 'ftp://x' }, {})).toThrowError(/--url/);
  });

  it('prepares ingest on up to four worker threads by default, or as MNEMO_INGEST_WORKERS says', () => {
    const cores = availableParallelism();
    expect(loadConfig({}, {}).ingestWorkers).toBe(Math.min(4, cores));
    expect(loadConfig({}, { MNEMO_INGEST_WORKERS: '0' }).ingestWorkers).toBe(0);
    expect(loadConfig({}, { MNEMO_INGEST_WORKERS: '3' }).ingestWorkers).toBe(3);
    for (const bad of ['two', '-1', '1.5', '17']) {
      expect(() => loadConfig({}, { MNEMO_INGEST_WORKERS: bad })).toThrowError(/ingestWorkers/);
    }
  });

  it('leaves the vector channel off unless a base URL and a model are set / 向量通道默认关闭', () => {
    expect(loadConfig({}, {}).embed).toBeUndefined();
    expect(loadConfig({}, { MNEMO_EMBED_DIMENSIONS: '256', MNEMO_EMBED_API_KEY: 'k' }).embed).toBeUndefined();
    const on = loadConfig(
      {},
      { MNEMO_EMBED_BASE_URL: 'http://127.0.0.1:11434/v1', MNEMO_EMBED_MODEL: 'bge-m3' },
    );
    expect(on.embed).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'bge-m3',
      timeoutMs: 1_000,
      weight: 1,
    });
    const full = loadConfig(
      {},
      {
        MNEMO_EMBED_BASE_URL: 'https://api.example.com/v1',
        MNEMO_EMBED_MODEL: 'text-embedding-3-small',
        MNEMO_EMBED_API_KEY: 'sk-embed',
        MNEMO_EMBED_DIMENSIONS: '256',
        MNEMO_EMBED_TIMEOUT_MS: '400',
        MNEMO_EMBED_WEIGHT: '0.5',
      },
    );
    expect(full.embed).toMatchObject({ apiKey: 'sk-embed', dimensions: 256, timeoutMs: 400, weight: 0.5 });
  });

  it.each([
    [{ MNEMO_EMBED_BASE_URL: 'http://127.0.0.1:1/v1' }, 'embed.model', /MNEMO_EMBED_MODEL is required/],
    [{ MNEMO_EMBED_MODEL: 'bge-m3' }, 'embed.baseUrl', /MNEMO_EMBED_BASE_URL is required/],
    [{ MNEMO_EMBED_BASE_URL: 'not a url', MNEMO_EMBED_MODEL: 'm' }, 'embed.baseUrl', /must be a URL/],
    [{ MNEMO_EMBED_DIMENSIONS: 'many' }, 'embed.dimensions', /whole number/],
    [{ MNEMO_EMBED_DIMENSIONS: '0' }, 'embed.dimensions', /at least 1/],
    [{ MNEMO_EMBED_TIMEOUT_MS: '1.5' }, 'embed.timeoutMs', /whole number/],
    [{ MNEMO_EMBED_WEIGHT: '-1' }, 'embed.weight', /between 0 and 10/],
  ])('refuses a half-set or malformed embedding setting: %j', (env, path, message) => {
    const base =
      'MNEMO_EMBED_BASE_URL' in env || 'MNEMO_EMBED_MODEL' in env
        ? {}
        : { MNEMO_EMBED_BASE_URL: 'http://127.0.0.1:1/v1', MNEMO_EMBED_MODEL: 'm' };
    let error: unknown;
    try {
      loadConfig({}, { ...base, ...env });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', data: { issues: [{ path }] } });
    expect((error as Error).message).toMatch(message);
  });

  it('leaves the write guard off unless MNEMO_WRITE_GUARD_THRESHOLD is set; under 1 counts as 1', () => {
    expect(loadConfig({}, { HOME: '/h' }).writeGuardThreshold).toBeUndefined();
    expect(
      loadConfig({}, { HOME: '/h', MNEMO_WRITE_GUARD_THRESHOLD: '' }).writeGuardThreshold,
    ).toBeUndefined();
    expect(loadConfig({}, { HOME: '/h', MNEMO_WRITE_GUARD_THRESHOLD: '3' }).writeGuardThreshold).toBe(3);
    expect(loadConfig({}, { HOME: '/h', MNEMO_WRITE_GUARD_THRESHOLD: '0' }).writeGuardThreshold).toBe(1);
    for (const bad of ['two', '1.5'])
      expect(() => loadConfig({}, { HOME: '/h', MNEMO_WRITE_GUARD_THRESHOLD: bad })).toThrowError(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(/writeGuardThreshold/),
        }),
      );
  });

  it('knows loopback hosts', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', '::'].some(isLoopback)).toBe(false);
  });
});
