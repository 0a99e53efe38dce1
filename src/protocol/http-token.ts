// The HTTP bearer token kept in the data directory: created once (0600), read by the server and its clients.
import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';

export const httpTokenPath = (dataDir: string): string => join(dataDir, 'http-token');

const MIN_TOKEN_LENGTH = 16;

/** The data directory's token, or null when there is no token file (yet). */
export async function readHttpToken(dataDir: string): Promise<string | null> {
  const path = httpTokenPath(dataDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const token = text.trim();
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new MemoryError(
      'CONFIG_INVALID',
      `${path} does not hold a token; delete it to create a new one on the next start`,
      { path },
    );
  }
  return token;
}

/** The data directory's token, created on first use; `created` says whether this call made it. */
export async function ensureHttpToken(
  dataDir: string,
): Promise<{ token: string; path: string; created: boolean }> {
  const path = httpTokenPath(dataDir);
  const existing = await readHttpToken(dataDir);
  if (existing !== null) return { token: existing, path, created: false };
  const token = randomBytes(32).toString('base64url');
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, `${token}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // invariant: link() creates the name exclusively and only with the whole token in it, so of two first
    // starts one token wins and both use it (test: http-token.test.ts "two first starts share one token").
    await link(draft, path);
    return { token, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readHttpToken(dataDir);
    if (winner === null) throw error;
    return { token: winner, path, created: false };
  } finally {
    await rm(draft, { force: true });
  }
}
