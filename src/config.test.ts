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

  it('knows loopback hosts', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', '::'].some(isLoopback)).toBe(false);
  });
});
