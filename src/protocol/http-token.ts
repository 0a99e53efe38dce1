// The HTTP bearer token kept in the data directory: created once (0600), read by the server and its clients.
import { join } from 'node:path';
import { ensureSecretFile, readSecretFile } from '../storage/secret-file.js';

export const httpTokenPath = (dataDir: string): string => join(dataDir, 'http-token');

/** The data directory's token, or null when there is no token file (yet). */
export const readHttpToken = (dataDir: string): Promise<string | null> =>
  readSecretFile(httpTokenPath(dataDir));

/** The data directory's token, created on first use; `created` says whether this call made it. */
export async function ensureHttpToken(
  dataDir: string,
): Promise<{ token: string; path: string; created: boolean }> {
  const path = httpTokenPath(dataDir);
  const { secret, created } = await ensureSecretFile(path);
  return { token: secret, path, created };
}
