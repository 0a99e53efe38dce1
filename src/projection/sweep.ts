// The change sweep: per owner, the objects whose files may differ from the database since the last sweep
// (changed objects, new relations, new or changed facts, failed or orphaned files), synced. Writers need no
// hook of their own: a sweep after a write, in the background or at start finds what changed.
import type { Queryable } from '../storage/driver.js';
import { changedSince, projectedOwners, setSweptAt, sweptAt } from './store.js';
import { syncObjectFiles, type ProjectionDeps, type SyncResult } from './sync.js';

/** A write that took its time before it committed is still after the mark: sweeps overlap by this much. */
export const SWEEP_OVERLAP_MS = 10_000;

/** After one call: the objects it changed (those changed since it started), and failed or orphaned files. */
export async function syncCallChanges(
  deps: ProjectionDeps,
  owner: string,
  since: number,
): Promise<SyncResult> {
  return syncObjectFiles(deps, owner, await changedSince(deps.driver, owner, since));
}

export async function syncChanges(deps: ProjectionDeps, owner?: string): Promise<SyncResult> {
  const total: SyncResult = { written: 0, deleted: 0, failed: 0 };
  for (const who of await projectedOwners(deps.driver, owner)) {
    const start = deps.now();
    const since = await sweptAt(deps.driver, who);
    const ids = await changedSince(deps.driver, who, since === undefined ? 0 : since - SWEEP_OVERLAP_MS);
    const r = await syncObjectFiles(deps, who, ids);
    total.written += r.written;
    total.deleted += r.deleted;
    total.failed += r.failed;
    await deps.driver.transaction((tx: Queryable) => setSweptAt(tx, who, start));
  }
  return total;
}
