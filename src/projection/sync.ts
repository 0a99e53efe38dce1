// Bringing objects' files in line with the database, after the writes committed: each named object's files
// rendered from what is stored and written where they differ, those of a vanished object deleted. A file that
// cannot be written is recorded (projection health), never thrown back at the write that changed the object.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Driver, Queryable } from '../storage/driver.js';
import { getObjects } from '../knowledge/knowledge.js';
import { ownerSlug } from '../organize/organize.js';
import { objectFiles, type ProjectedFile } from './render.js';
import { dropFileRow, fileRows, markFailed, markWritten, type FileRow } from './store.js';
import { loadView } from './view.js';
import { listFiles, removePath, writeAtomic } from './write.js';

export interface ProjectionDeps {
  driver: Driver;
  /** The files live in `<dataDir>/objects/<owner-slug>/`. */
  dataDir: string;
  now(): number;
}

export interface SyncResult {
  written: number;
  deleted: number;
  failed: number;
}

/** Objects per transaction: the projection lock is held while their files are written. */
const CHUNK = 50;

export const ownerRoot = (dataDir: string, owner: string): string =>
  join(dataDir, 'objects', ownerSlug(owner));

const digestOf = (files: readonly ProjectedFile[]): string => {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.path}\0${f.content}\0`);
  return hash.digest('hex');
};

/** The lock that serialises one owner's file work across processes. */
const projectionLock = (owner: string): string => `projection:${owner}`;

function removeObject(root: string, row: Pick<FileRow, 'type' | 'slug'>): void {
  removePath(join(root, row.type, `${row.slug}.md`));
  if (row.type === 'schedule') removePath(join(root, row.type, row.slug));
}

/** Writes a schedule's folder whole: files no longer part of it (older runs) go. */
function writeFiles(root: string, files: readonly ProjectedFile[], folder: string | null): number {
  let written = 0;
  for (const f of files) if (writeAtomic(join(root, f.path), f.content)) written++;
  if (folder !== null) {
    const keep = new Set(files.map((f) => f.path));
    for (const path of listFiles(join(root, folder))) {
      if (!keep.has(`${folder}/${path}`)) removePath(join(root, folder, path));
    }
  }
  return written;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function syncChunk(tx: Queryable, deps: ProjectionDeps, owner: string, ids: readonly string[]) {
  const out: SyncResult = { written: 0, deleted: 0, failed: 0 };
  await tx.lockOwner(projectionLock(owner));
  const root = ownerRoot(deps.dataDir, owner);
  const objects = new Map((await getObjects(tx, owner, ids)).map((o) => [o.object_id, o]));
  const rows = await fileRows(tx, owner, ids);
  for (const id of ids) {
    const o = objects.get(id);
    const row = rows.get(id);
    if (!o) {
      if (!row) continue;
      try {
        removeObject(root, row);
        await dropFileRow(tx, owner, id);
        out.deleted++;
      } catch (error) {
        await markFailed(tx, owner, id, message(error), deps.now());
        out.failed++;
      }
      continue;
    }
    const view = await loadView(tx, o);
    const files = objectFiles(view);
    // Files are written synchronously: nothing is awaited but the transaction, which holds the lock.
    try {
      writeFiles(root, files, o.type === 'schedule' ? `${o.type}/${view.slug}` : null);
      await markWritten(tx, owner, id, digestOf(files));
      out.written++;
    } catch (error) {
      await markFailed(tx, owner, id, message(error), deps.now());
      out.failed++;
    }
  }
  return out;
}

/**
 * Rewrites each object's files from the database and deletes those of objects that no longer exist; call it
 * after the transaction that changed them committed (memory.forget calls it with the ids it deleted).
 * invariant: a file failure never undoes or fails the database write; it is recorded for
 * memory.chain.status (test: src/projection/projection.test.ts "records a file failure…").
 */
export async function syncObjectFiles(
  deps: ProjectionDeps,
  owner: string,
  objectIds: readonly string[],
): Promise<SyncResult> {
  const ids = [...new Set(objectIds)];
  const total: SyncResult = { written: 0, deleted: 0, failed: 0 };
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const r = await deps.driver.transaction((tx) => syncChunk(tx, deps, owner, part));
    total.written += r.written;
    total.deleted += r.deleted;
    total.failed += r.failed;
  }
  return total;
}
