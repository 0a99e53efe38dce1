// memory.track.archive: the oldest entries beyond a track's budget (and those older than `before`) move out
// of the track: lifecycle deprecated with `archived_at`, text and sources kept, readable with
// include_archived. A dry run (the default) only reports what would move; moving needs dry_run: false and
// confirm: true.
import type { z } from 'zod';
import { MemoryError } from '../errors.js';
import type { Driver, Queryable } from '../storage/driver.js';
import { writeState } from './memory-store.js';
import { projectScope } from './project-ref.js';
import { trackEntries, type EntryRow } from './track-view.js';
import type { Track, TrackArchiveParams, TrackArchiveResultSchema } from './tracks-schema.js';

/** The entries a track keeps by default: the snapshot budgets of the maestro surface (seed 003). */
export const TRACK_BUDGET: Readonly<Record<Track, number>> = {
  memory: 8,
  user: 8,
  key: 12,
  project: 8,
  daily: 14,
};
const ALL = 100_000;
const HEAD = 80;

const head = (text: string) => ([...text].length > HEAD ? `${[...text].slice(0, HEAD - 1).join('')}…` : text);

/** Live entries beyond the newest `keep`, and any older than `before`. */
export function entriesToMove(live: readonly EntryRow[], keep: number, before?: number): EntryRow[] {
  return live.filter((m, i) => i >= keep || (before !== undefined && m.at < before));
}

/**
 * invariant: archiving moves entries and never drops one: an archived entry keeps its text and sources and
 * stays readable (test: src/knowledge/tracks.test.ts "invariant: archive: a dry run reports, confirm
 * moves…").
 */
export async function archiveTrack(
  db: Driver,
  p: TrackArchiveParams,
  now: number,
): Promise<z.input<typeof TrackArchiveResultSchema>> {
  if (!p.dry_run && !p.confirm) {
    const message = 'moving entries needs confirm: true (or a dry run to see what would move)';
    throw new MemoryError('INVALID_PARAMS', message, { issues: [{ path: 'confirm', message }] });
  }
  const keep = p.keep ?? TRACK_BUDGET[p.track];
  const plan = async (tx: Queryable) => {
    const project = await projectScope(tx, p.owner, p.project);
    if (p.project !== undefined && !project) return { live: [], moving: [] };
    const live = await trackEntries(tx, p.owner, p.track, project, { includeArchived: false, limit: ALL });
    return { live, moving: entriesToMove(live, keep, p.before) };
  };
  const answer = (live: readonly EntryRow[], moving: readonly EntryRow[], moved: number) => ({
    track: p.track,
    dry_run: p.dry_run,
    moved,
    entries: moving.map((m) => ({ id: m.memory_id, at: new Date(m.at).toISOString(), head: head(m.text) })),
    kept: live.length - moving.length,
  });
  if (p.dry_run) {
    const { live, moving } = await plan(db);
    return answer(live, moving, 0);
  }
  return db.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const { live, moving } = await plan(tx);
    for (const m of moving) {
      await writeState(tx, p.owner, m.memory_id, {
        lifecycle: 'deprecated',
        status: 'deprecated',
        archived_at: now,
        updated_at: now,
      });
    }
    return answer(live, moving, moving.length);
  });
}
