// A secret kept in a 0600 file of the data directory: created once, whole, by whichever start comes first.
import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { MemoryError } from '../errors.js';

const MIN_SECRET_LENGTH = 16;

/** The secret in `path`, or null when there is no such file (yet). */
export async function readSecretFile(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < MIN_SECRET_LENGTH || /\s/.test(secret)) {
    throw new MemoryError(
      'CONFIG_INVALID',
      `${path} does not hold a secret; delete it to create a new one on the next start`,
      { path },
    );
  }
  return secret;
}

/** The secret in `path`, created on first use (32 random bytes); `created` says whether this call made it. */
export async function ensureSecretFile(path: string): Promise<{ secret: string; created: boolean }> {
  const existing = await readSecretFile(path);
  if (existing !== null) return { secret: existing, created: false };
  const secret = randomBytes(32).toString('base64url');
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // invariant: link() creates the name exclusively and only with the whole secret in it, so of two first
    // starts one secret wins and both use it (test: http-token.test.ts "two first starts share one token").
    await link(draft, path);
    return { secret, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readSecretFile(path);
    if (winner === null) throw error;
    return { secret: winner, created: false };
  } finally {
    await rm(draft, { force: true });
  }
}
