// `mnemo projection rebuild`: every file written again from the database, which is authoritative: each
// object's files (in creation order, so new slugs are given deterministically), the core documents' files,
// and nothing else left in an owner's objects folder.
import { join } from 'node:path';
import { rewriteCoreFiles } from '../organize/organize.js';
import { int, row, str } from '../storage/rows.js';
import { allFileRows, projectedOwners } from './store.js';
import { ownerRoot, syncObjectFiles, type ProjectionDeps } from './sync.js';
import { listFiles, pruneEmpty, removePath } from './write.js';
import { objectFiles } from './render.js';
import { loadView } from './view.js';
import { getObjects } from '../knowledge/knowledge.js';

const IdRow = row({ object_id: str, created_at: int });

export interface RebuildResult {
  owners: number;
  objects: number;
  files: number;
  removed: number;
  core_files: number;
  failed: number;
}

/** The paths (relative to the owner's folder) the database says the owner's objects have. */
async function expectedPaths(deps: ProjectionDeps, owner: string): Promise<Set<string>> {
  const out = new Set<string>();
  const ids = (await allFileRows(deps.driver, owner)).map((r) => r.object_id);
  for (let i = 0; i < ids.length; i += 200) {
    for (const o of await getObjects(deps.driver, owner, ids.slice(i, i + 200))) {
      for (const f of objectFiles(await loadView(deps.driver, o))) out.add(f.path);
    }
  }
  return out;
}

/**
 * invariant: the files a rebuild leaves depend only on the database: the same bytes as the writes made, and
 * twice the same (test: src/projection/projection.test.ts "rebuilds every file…").
 */
export async function rebuildProjection(deps: ProjectionDeps, owner?: string): Promise<RebuildResult> {
  const result: RebuildResult = { owners: 0, objects: 0, files: 0, removed: 0, core_files: 0, failed: 0 };
  for (const who of await projectedOwners(deps.driver, owner)) {
    result.owners++;
    const objects = await deps.driver.all(
      IdRow,
      'SELECT object_id, created_at FROM objects WHERE owner = ? ORDER BY created_at, object_id',
      [who],
    );
    const orphans = (await allFileRows(deps.driver, who)).map((r) => r.object_id);
    const synced = await syncObjectFiles(deps, who, [...objects.map((o) => o.object_id), ...orphans]);
    result.objects += objects.length;
    result.failed += synced.failed;
    const root = ownerRoot(deps.dataDir, who);
    const expected = await expectedPaths(deps, who);
    for (const path of listFiles(root)) {
      if (expected.has(path)) result.files++;
      else {
        removePath(join(root, path));
        result.removed++;
      }
    }
    pruneEmpty(root);
    result.core_files += await rewriteCoreFiles(deps.driver, deps.dataDir, who);
  }
  return result;
}
