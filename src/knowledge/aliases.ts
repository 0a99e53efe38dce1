// Aliases: the other names of an object (老李 for 李卫东, Tony for 唐志远), compared in normal form (names.ts).
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import { normName } from './names.js';
import { inList } from './objects.js';

const AliasRow = row({ object_id: str, alias: str, norm_alias: str });

/**
 * The aliases worth keeping: one per normal form, none empty, none equal to the name (in normal form).
 */
export function cleanAliases(name: string, aliases: readonly string[]): string[] {
  const seen = new Set([normName(name)]);
  const out: string[] = [];
  for (const raw of aliases) {
    const alias = raw.trim();
    const norm = normName(alias);
    if (norm === '' || seen.has(norm)) continue;
    seen.add(norm);
    out.push(alias);
  }
  return out;
}

/** Each object's aliases as written, in normal-form order. */
export async function aliasesOf(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db.all(
    AliasRow,
    `SELECT object_id, alias, norm_alias FROM object_aliases
      WHERE owner = ? AND object_id IN ${inList(ids)} ORDER BY object_id, norm_alias`,
    [owner, ...ids],
  );
  for (const r of rows) out.get(r.object_id)?.push(r.alias);
  return out;
}

/** Adds aliases an object does not have yet (by normal form); answers those added. */
export async function addAliases(
  tx: Queryable,
  owner: string,
  id: string,
  aliases: readonly string[],
): Promise<string[]> {
  const added: string[] = [];
  for (const alias of aliases) {
    const { changes } = await tx.run(
      `INSERT INTO object_aliases (owner, object_id, alias, norm_alias) VALUES (?, ?, ?, ?)
       ON CONFLICT (owner, object_id, norm_alias) DO NOTHING`,
      [owner, id, alias, normName(alias)],
    );
    if (changes > 0) added.push(alias);
  }
  return added;
}

/** The objects that have one of these normalised aliases, with the alias that matched. */
export async function objectsWithAlias(
  db: Queryable,
  owner: string,
  norms: readonly string[],
): Promise<Array<{ object_id: string; alias: string; norm_alias: string }>> {
  if (norms.length === 0) return [];
  return db.all(
    AliasRow,
    `SELECT object_id, alias, norm_alias FROM object_aliases
      WHERE owner = ? AND norm_alias IN ${inList(norms)} ORDER BY object_id, norm_alias`,
    [owner, ...norms],
  );
}
