// Where the harness finds the shared data and writes its output.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this module with a package.json (works from dist/ too). */
export function findRepoRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(from);
    dir = parent;
  }
}

/** A file of the shared data folder, `../shared/data` beside the repository. */
export const sharedDataFile = (relative: string, root: string = findRepoRoot()): string =>
  resolve(root, '..', 'shared', 'data', relative);

/** `eval-out/<dataset>-<UTC timestamp>` under `cwd`. */
export const defaultOutDir = (dataset: string, now: Date = new Date(), cwd: string = process.cwd()): string =>
  resolve(cwd, 'eval-out', `${dataset}-${now.toISOString().slice(0, 19).replace(/:/g, '-')}`);
