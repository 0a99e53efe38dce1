// Owns the core documents: core_docs (the current revision), core_versions (every version, append-only)
// and core_conflicts (edits that could not be applied, kept with their text).
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, row, str } from '../storage/rows.js';
import { CORE_DOCS, type CoreDoc } from './schema-chain.js';

const DocRow = row({ doc: z.enum(CORE_DOCS), revision: int, text: str, updated_at: int });
export type DocRow = z.output<typeof DocRow>;

const forUpdate = (db: Queryable): string => (db.dialect === 'postgres' ? ' FOR UPDATE' : '');

export const coreDocs = (db: Queryable, owner: string, lock = false): Promise<DocRow[]> =>
  db.all(
    DocRow,
    `SELECT doc, revision, text, updated_at FROM core_docs WHERE owner = ?${lock ? forUpdate(db) : ''}`,
    [owner],
  );

export const coreDoc = (
  db: Queryable,
  owner: string,
  doc: CoreDoc,
  lock = false,
): Promise<DocRow | undefined> =>
  db.one(
    DocRow,
    `SELECT doc, revision, text, updated_at FROM core_docs WHERE owner = ? AND doc = ?${lock ? forUpdate(db) : ''}`,
    [owner, doc],
  );

/** Writes revision `revision` (the previous + 1) as the current one and keeps it among the versions. */
export async function writeRevision(
  tx: Queryable,
  v: {
    owner: string;
    doc: CoreDoc;
    revision: number;
    text: string;
    source: 'bootstrap' | 'update' | 'file';
    now: number;
  },
): Promise<void> {
  await tx.run(
    `INSERT INTO core_docs (owner, doc, revision, text, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (owner, doc) DO UPDATE SET revision = excluded.revision, text = excluded.text,
       updated_at = excluded.updated_at`,
    [v.owner, v.doc, v.revision, v.text, v.now],
  );
  await tx.run(
    'INSERT INTO core_versions (owner, doc, revision, text, source, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [v.owner, v.doc, v.revision, v.text, v.source, v.now],
  );
}

const VersionRow = row({ doc: str, revision: int, text: str, source: str, created_at: int });

export const coreVersions = (db: Queryable, owner: string, doc: CoreDoc) =>
  db.all(
    VersionRow,
    'SELECT doc, revision, text, source, created_at FROM core_versions WHERE owner = ? AND doc = ? ORDER BY revision',
    [owner, doc],
  );

/** Keeps an edit that was not applied; the same edit (by digest) is kept once. */
export async function insertConflict(
  tx: Queryable,
  c: {
    owner: string;
    doc: CoreDoc;
    baseRevision: number | null;
    currentRevision: number;
    reason: string;
    text: string;
    digest: string;
    now: number;
  },
): Promise<boolean> {
  const { changes } = await tx.run(
    `INSERT INTO core_conflicts (owner, doc, base_revision, current_revision, reason, text, digest, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (owner, doc, digest) DO NOTHING`,
    [c.owner, c.doc, c.baseRevision, c.currentRevision, c.reason, c.text, c.digest, c.now],
  );
  return changes > 0;
}

const ConflictRow = row({
  conflict_id: int,
  owner: str,
  doc: z.enum(CORE_DOCS),
  base_revision: nint,
  current_revision: int,
  reason: str,
  text: str,
  created_at: int,
});
export type ConflictRow = z.output<typeof ConflictRow>;

/** The newest conflicts (of one owner or all). */
export const coreConflicts = (db: Queryable, owner?: string, limit = 50): Promise<ConflictRow[]> =>
  db.all(
    ConflictRow,
    `SELECT conflict_id, owner, doc, base_revision, current_revision, reason, text, created_at FROM core_conflicts
      ${owner === undefined ? '' : 'WHERE owner = ?'} ORDER BY conflict_id DESC LIMIT ?`,
    owner === undefined ? [limit] : [owner, limit],
  );
