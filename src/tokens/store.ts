// The api_tokens table: only this file writes it. A token's row holds its SHA-256, never the token.
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { nint, nstr, row, str, int } from '../storage/rows.js';

const Patterns = z.string().transform((text) => z.array(z.string()).parse(JSON.parse(text)));

export const TokenRow = row({
  id: str,
  name: nstr,
  owners: Patterns,
  created_at: int,
  revoked_at: nint,
  last_used_at: nint,
});
export type TokenRow = z.output<typeof TokenRow>;

const COLUMNS = 'id, name, owners, created_at, revoked_at, last_used_at';

export async function insertToken(
  db: Queryable,
  token: { id: string; name: string | null; hash: string; owners: readonly string[]; at: number },
): Promise<TokenRow> {
  const inserted = await db.one(
    TokenRow,
    `INSERT INTO api_tokens (id, name, token_hash, owners, created_at) VALUES (?, ?, ?, ?, ?)
     RETURNING ${COLUMNS}`,
    [token.id, token.name, token.hash, JSON.stringify(token.owners), token.at],
  );
  if (!inserted) throw new Error('INSERT … RETURNING gave no row');
  return inserted;
}

export const findTokenByHash = (db: Queryable, hash: string): Promise<TokenRow | undefined> =>
  db.one(TokenRow, `SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = ?`, [hash]);

export const listTokenRows = (db: Queryable): Promise<TokenRow[]> =>
  db.all(TokenRow, `SELECT ${COLUMNS} FROM api_tokens ORDER BY created_at, id`);

/** Revokes once: a second revocation keeps the first time. Undefined when no such token exists. */
export async function revokeTokenRow(db: Queryable, id: string, at: number): Promise<TokenRow | undefined> {
  await db.run('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]);
  return db.one(TokenRow, `SELECT ${COLUMNS} FROM api_tokens WHERE id = ?`, [id]);
}

export async function touchToken(db: Queryable, id: string, at: number): Promise<void> {
  await db.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', [at, id]);
}
