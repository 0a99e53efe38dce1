import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDirs } from '../../test/helpers/temp.js';
import { ensureHttpToken, httpTokenPath, readHttpToken } from './http-token.js';

const temp = createTempDirs();
afterAll(() => temp.cleanup());

describe('the HTTP token file', () => {
  it('regression for issue 8: is created once, mode 0600, and reused', async () => {
    const dir = temp.make();
    expect(await readHttpToken(dir)).toBeNull();
    const first = await ensureHttpToken(dir);
    expect(first).toMatchObject({ path: httpTokenPath(dir), created: true });
    expect(first.token).toMatch(/^[\w-]{43}$/);
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(await ensureHttpToken(dir)).toEqual({ ...first, created: false });
    expect(await readHttpToken(dir)).toBe(first.token);
    expect(readdirSync(dir)).toEqual(['http-token']);
  });

  it('two first starts share one token', async () => {
    const dir = temp.make();
    const [a, b, c] = await Promise.all([ensureHttpToken(dir), ensureHttpToken(dir), ensureHttpToken(dir)]);
    expect(new Set([a.token, b.token, c.token]).size).toBe(1);
    expect([a, b, c].filter((start) => start.created)).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['http-token']);
  });

  it('refuses a file that holds no token', async () => {
    const dir = temp.make();
    writeFileSync(httpTokenPath(dir), '\n');
    await expect(ensureHttpToken(dir)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await expect(readHttpToken(dir)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
