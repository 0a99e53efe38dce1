// Which project a working directory belongs to: the owner's project object named (by its name or an alias)
// by the whole path, or else by one of its last segments, the deepest first.
import { MemoryError } from '../errors.js';
import { projectScope, type ProjectScope } from '../knowledge/knowledge.js';
import type { Queryable } from '../storage/driver.js';

/** Segments looked at, from the deepest up: a project sits near the directory one works in. */
const SEGMENTS = 8;

export type SnapshotProject = ProjectScope & { name: string };

/** The names a directory could be known by, in the order they are tried. */
export function cwdCandidates(cwd: string): string[] {
  const trimmed = cwd.trim().replace(/[\\/]+$/, '');
  const segments = trimmed
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.' && s !== '..' && s !== '~' && !/^[A-Za-z]:$/.test(s))
    .slice(-SEGMENTS)
    .reverse();
  return [...new Set([trimmed, ...segments].filter((s) => s !== '' && s.length <= 200))];
}

/** The directory's own name (its deepest segment). */
export const cwdName = (cwd: string): string | undefined => cwdCandidates(cwd).at(1) ?? cwdCandidates(cwd)[0];

export async function projectOfCwd(
  db: Queryable,
  owner: string,
  cwd: string | undefined,
): Promise<SnapshotProject | undefined> {
  if (cwd === undefined) return undefined;
  for (const name of cwdCandidates(cwd)) {
    try {
      const found = await projectScope(db, owner, name);
      if (found) return found;
    } catch (error) {
      // A segment that is the id of an object of another type names no project.
      if (!(error instanceof MemoryError && error.code === 'INVALID_PARAMS')) throw error;
    }
  }
  return undefined;
}
