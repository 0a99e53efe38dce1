// Files of the projection on disk: each replaced whole (written beside it, fsynced, renamed over it), 0600 in
// 0700 folders; a file that already holds the bytes is left alone.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

function readIfExists(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes `content` to `path` unless it holds those bytes already; answers whether it wrote.
 * invariant: a projected file is replaced whole or not at all, 0600 (test: src/projection/projection.test.ts
 * "writes a file per object…").
 */
export function writeAtomic(path: string, content: string): boolean {
  const bytes = Buffer.from(content, 'utf8');
  if (readIfExists(path)?.equals(bytes)) return false;
  mkdirSync(dirname(path), { recursive: true, mode: DIR_MODE });
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(draft, 'w', FILE_MODE);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(draft, path);
  } catch (error) {
    rmSync(draft, { force: true });
    throw error;
  }
  return true;
}

export function removePath(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** Every file under `root`, as paths relative to it with `/` separators, sorted. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else out.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** Removes the folders under `root` left empty (deepest first), never `root` itself. */
export function pruneEmpty(root: string): void {
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    let empty = true;
    for (const e of entries) {
      if (e.isDirectory() && walk(join(dir, e.name)))
        rmSync(join(dir, e.name), { recursive: true, force: true });
      else empty = false;
    }
    return empty;
  };
  walk(root);
}
