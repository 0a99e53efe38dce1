// GET /v2/attention: what waits unclaimed in the inboxes of the caller's owners (one named owner, or every
// owner its credential allows), oldest first. It reads; it claims nothing.
import type { Principal } from '../protocol/principal.js';
import { assertOwner } from '../protocol/principal.js';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { ENTRY_COLUMNS, entryRows, toEntry } from './inbox-store.js';

/** SQL for "an owner this principal allows": exact owners, and `prefix/*` as a prefix compared whole. */
function ownerFilter(principal: Principal, owner: string | undefined): { sql: string; params: SqlValue[] } {
  if (owner !== undefined) {
    assertOwner(principal, owner);
    return { sql: 'owner = ?', params: [owner] };
  }
  if (principal.kind === 'all') return { sql: '1 = 1', params: [] };
  if (principal.owners.length === 0) return { sql: '1 = 0', params: [] };
  const parts: string[] = [];
  const params: SqlValue[] = [];
  for (const pattern of principal.owners) {
    if (pattern.endsWith('/*')) {
      const prefix = pattern.slice(0, -1);
      parts.push('substr(owner, 1, ?) = ?');
      params.push(prefix.length, prefix);
    } else {
      parts.push('owner = ?');
      params.push(pattern);
    }
  }
  return { sql: `(${parts.join(' OR ')})`, params };
}

/**
 * invariant: attention lists only owners the principal allows: the filter is built from its patterns (and
 * row-level security checks the same on PostgreSQL) (test: src/inject/routes.test.ts "GET /v2/attention lists what is unclaimed…").
 */
export async function listAttention(
  db: Queryable,
  principal: Principal,
  p: { owner?: string | undefined; limit: number },
) {
  const filter = ownerFilter(principal, p.owner);
  const rows = await entryRows(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM inbox_items WHERE status = 'pending' AND ${filter.sql}
      ORDER BY created_at, owner, session_id, seq LIMIT ?`,
    [...filter.params, p.limit],
  );
  return { items: rows.map((r) => ({ ...toEntry(r), owner: r.owner, session_id: r.session_id })) };
}
