// Tenant tokens: created with a set of owner patterns, shown once, stored as their SHA-256, looked up on
// every HTTP request (no cache), so a revocation holds at once in every process sharing the database.
import { createHash, randomBytes } from 'node:crypto';
import { MemoryError } from '../errors.js';
import type { Authenticate } from '../protocol/http-guard.js';
import type { Principal } from '../protocol/principal.js';
import type { Queryable } from '../storage/driver.js';
import type { TokenCreateParams, TokenInfo } from './schema.js';
import {
  findTokenByHash,
  insertToken,
  listTokenRows,
  revokeTokenRow,
  touchToken,
  type TokenRow,
} from './store.js';

/** Every tenant token starts with it, so a leaked one is recognisable (and secret scanners can find it). */
export const TOKEN_PREFIX = 'mnemo_tk_';
/** last_used_at is written at most this often per token: a request is not a write. */
export const TOUCH_INTERVAL_MS = 60_000;

/** 256 random bits: a hash without a salt cannot be reversed by guessing. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const describeToken = (row: TokenRow): TokenInfo => ({
  id: row.id,
  name: row.name,
  owners: row.owners,
  created_at: new Date(row.created_at).toISOString(),
  revoked_at: iso(row.revoked_at),
  last_used_at: iso(row.last_used_at),
});

export async function createToken(
  db: Queryable,
  params: TokenCreateParams,
  now: number,
): Promise<TokenInfo & { token: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  // invariant: the database holds a token's hash, never the token (test: src/tokens/tokens.test.ts "stores
  // only a hash…").
  const row = await insertToken(db, {
    id: `tk_${randomBytes(6).toString('hex')}`,
    name: params.name ?? null,
    hash: hashToken(token),
    owners: [...new Set(params.owners)],
    at: now,
  });
  return { ...describeToken(row), token };
}

export const listTokens = async (db: Queryable): Promise<TokenInfo[]> =>
  (await listTokenRows(db)).map(describeToken);

export async function revokeToken(db: Queryable, id: string, now: number): Promise<TokenInfo> {
  const row = await revokeTokenRow(db, id, now);
  if (!row) throw new MemoryError('NOT_FOUND', `no token ${id}`, { id });
  return describeToken(row);
}

/**
 * The principal of a tenant token, or null when it is unknown or revoked.
 * invariant: every request reads the token's row, so a revocation committed by any process sharing the
 * database refuses the very next request (test: test/token-revocation.test.ts).
 */
export function tenantAuthenticator(db: Queryable, now: () => number): Authenticate {
  return async (presented) => {
    if (!presented.startsWith(TOKEN_PREFIX)) return null;
    const row = await findTokenByHash(db, hashToken(presented));
    if (!row || row.revoked_at !== null) return null;
    const at = now();
    if (row.last_used_at === null || at - row.last_used_at >= TOUCH_INTERVAL_MS) {
      // Advisory only: a store that cannot take the write still answers who the token is.
      await touchToken(db, row.id, at).catch(() => undefined);
    }
    const principal: Principal = {
      kind: 'scoped',
      name: `token:${row.id}`,
      owners: Object.freeze(row.owners),
    };
    return Object.freeze(principal);
  };
}
