// Owns object_files (each object's file name, the digest last written, the last failure) and
// projection_owners (how far each owner's change sweep has read).
import type { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import { baseSlug, disambiguated } from './slug.js';

const FileRow = row({ object_id: str, type: str, slug: str, digest: nstr, error: nstr, error_at: nint });
export type FileRow = z.output<typeof FileRow>;
const SlugRow = row({ slug: str });
const OwnerRow = row({ owner: str });
const SweptRow = row({ swept_at: int });
const IdRow = row({ object_id: str });
const HealthRow = row({ files: int, failing: int, missing: int });
const ErrorRow = row({ owner: str, object_id: str, error: str, error_at: int });

const inList = (n: number): string => `(${Array.from({ length: n }, () => '?').join(', ')})`;

export async function fileRows(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, FileRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all(
    FileRow,
    `SELECT object_id, type, slug, digest, error, error_at FROM object_files
      WHERE owner = ? AND object_id IN ${inList(ids.length)}`,
    [owner, ...ids],
  );
  return new Map(rows.map((r) => [r.object_id, r]));
}

export const allFileRows = (db: Queryable, owner: string): Promise<FileRow[]> =>
  db.all(
    FileRow,
    'SELECT object_id, type, slug, digest, error, error_at FROM object_files WHERE owner = ? ORDER BY object_id',
    [owner],
  );

/**
 * The object's slug: the one it was given first, else its name's, else that with its id.
 * invariant: a slug is assigned once per object and unique per owner, so a rename never moves a file and
 * two objects never share one (test: src/projection/projection.test.ts "keeps the file name…").
 */
export async function slugFor(
  tx: Queryable,
  owner: string,
  o: { object_id: string; type: string; name: string },
): Promise<string> {
  const base = baseSlug(o.name);
  for (const slug of [base, disambiguated(base, o.object_id), `${base}-${o.object_id}`]) {
    await tx.run(
      `INSERT INTO object_files (owner, object_id, type, slug) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [owner, o.object_id, o.type, slug],
    );
    const found = await tx.one(SlugRow, 'SELECT slug FROM object_files WHERE owner = ? AND object_id = ?', [
      owner,
      o.object_id,
    ]);
    if (found) return found.slug;
  }
  throw new Error(`no free slug for object ${o.object_id}`);
}

export async function markWritten(tx: Queryable, owner: string, id: string, digest: string): Promise<void> {
  await tx.run(
    'UPDATE object_files SET digest = ?, error = NULL, error_at = NULL WHERE owner = ? AND object_id = ?',
    [digest, owner, id],
  );
}

export async function markFailed(
  tx: Queryable,
  owner: string,
  id: string,
  error: string,
  at: number,
): Promise<void> {
  await tx.run('UPDATE object_files SET error = ?, error_at = ? WHERE owner = ? AND object_id = ?', [
    error.slice(0, 500),
    at,
    owner,
    id,
  ]);
}

export async function dropFileRow(tx: Queryable, owner: string, id: string): Promise<void> {
  await tx.run('DELETE FROM object_files WHERE owner = ? AND object_id = ?', [owner, id]);
}

/** Owners with objects, core documents or files. */
export async function projectedOwners(db: Queryable, owner?: string): Promise<string[]> {
  if (owner !== undefined) return [owner];
  const rows = await db.all(
    OwnerRow,
    `SELECT owner FROM objects UNION SELECT owner FROM core_docs UNION SELECT owner FROM object_files ORDER BY owner`,
  );
  return rows.map((r) => r.owner);
}

export async function sweptAt(db: Queryable, owner: string): Promise<number | undefined> {
  return (await db.one(SweptRow, 'SELECT swept_at FROM projection_owners WHERE owner = ?', [owner]))
    ?.swept_at;
}

export async function setSweptAt(tx: Queryable, owner: string, at: number): Promise<void> {
  await tx.run(
    `INSERT INTO projection_owners (owner, swept_at) VALUES (?, ?)
     ON CONFLICT (owner) DO UPDATE SET swept_at = excluded.swept_at`,
    [owner, at],
  );
}

/**
 * Objects whose file may have changed since `since`: changed themselves, an end of a new relation, or the
 * subject of a memory written or changed since (its facts are in the file).
 */
export async function changedSince(db: Queryable, owner: string, since: number): Promise<string[]> {
  const rows = await db.all(
    IdRow,
    `SELECT object_id FROM objects WHERE owner = ? AND updated_at >= ?
     UNION SELECT from_id AS object_id FROM object_relations WHERE owner = ? AND created_at >= ?
     UNION SELECT to_id AS object_id FROM object_relations WHERE owner = ? AND created_at >= ?
     UNION SELECT o.object_id FROM memories m JOIN objects o ON o.owner = m.owner AND o.norm_name = m.norm_subject
      WHERE m.owner = ? AND (m.updated_at >= ? OR m.created_at >= ?)
     UNION SELECT a.object_id FROM memories m
       JOIN object_aliases a ON a.owner = m.owner AND a.norm_alias = m.norm_subject
      WHERE m.owner = ? AND (m.updated_at >= ? OR m.created_at >= ?)
     UNION SELECT f.object_id FROM object_files f
       LEFT JOIN objects o ON o.owner = f.owner AND o.object_id = f.object_id
      WHERE f.owner = ? AND (o.object_id IS NULL OR f.error IS NOT NULL)
     ORDER BY object_id`,
    [owner, since, owner, since, owner, since, owner, since, since, owner, since, since, owner],
  );
  return rows.map((r) => r.object_id);
}

export interface ProjectionHealth {
  /** Object files written and current. */
  files: number;
  /** Objects whose file failed or was never written. */
  stale: number;
  last_error: { owner: string; object_id: string; error: string; at: string } | null;
}

export async function projectionHealth(db: Queryable, owner?: string): Promise<ProjectionHealth> {
  const scope = owner === undefined ? '' : 'AND f.owner = ?';
  const objectScope = owner === undefined ? '' : 'AND o.owner = ?';
  const params = owner === undefined ? [] : [owner];
  const counts = await db.one(
    HealthRow,
    `SELECT (SELECT count(*) FROM object_files f WHERE f.digest IS NOT NULL AND f.error IS NULL ${scope}) AS files,
            (SELECT count(*) FROM object_files f WHERE f.error IS NOT NULL ${scope}) AS failing,
            (SELECT count(*) FROM objects o WHERE NOT EXISTS (SELECT 1 FROM object_files f
               WHERE f.owner = o.owner AND f.object_id = o.object_id AND (f.digest IS NOT NULL OR f.error IS NOT NULL)) ${objectScope}) AS missing`,
    [...params, ...params, ...params],
  );
  const last = await db.one(
    ErrorRow,
    `SELECT f.owner, f.object_id, f.error, f.error_at FROM object_files f
      WHERE f.error IS NOT NULL AND f.error_at IS NOT NULL ${scope} ORDER BY f.error_at DESC, f.object_id LIMIT 1`,
    params,
  );
  return {
    files: counts?.files ?? 0,
    stale: (counts?.failing ?? 0) + (counts?.missing ?? 0),
    last_error: last
      ? {
          owner: last.owner,
          object_id: last.object_id,
          error: last.error,
          at: new Date(last.error_at).toISOString(),
        }
      : null,
  };
}
