// The data directory holds private data: it is 0700 and every file mnemo keeps there 0600, whatever the
// umask, and even when the directory or a file already existed with wider modes (those are fixed, with a
// warning, so an operator learns that something widened them).
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from '../log.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Files of the data directory that hold private data or secrets. */
export const privateFiles = (dataDir: string, databasePath: string | null): string[] => [
  ...(databasePath === null
    ? []
    : [databasePath, `${databasePath}-wal`, `${databasePath}-shm`, `${databasePath}-journal`]),
  join(dataDir, 'http-token'),
  join(dataDir, 'redaction-key'),
];

function tighten(path: string, mode: number, log: Logger | undefined): void {
  const current = statSync(path).mode & 0o777;
  if ((current & ~mode) === 0) return;
  log?.warn(
    { path: basename(path), mode: current.toString(8), fixed: mode.toString(8) },
    'mode was too wide; fixed',
  );
  chmodSync(path, mode);
}

/**
 * Creates the data directory (0700) and an empty database file (0600) before SQLite opens it: SQLite gives
 * the -wal and -shm files the mode of the database file, so none of them is ever readable by others.
 * invariant: the data directory is 0700 and its private files 0600 (test: src/storage/file-modes.test.ts).
 */
export function secureDataDir(dataDir: string, databasePath: string | null, log?: Logger): void {
  mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  tighten(dataDir, DIR_MODE, log);
  if (databasePath !== null && !existsSync(databasePath)) closeSync(openSync(databasePath, 'a', FILE_MODE));
  tightenFiles(dataDir, databasePath, log);
}

/** Fixes the modes of the private files that exist now (after open, the -wal and -shm files too). */
export function tightenFiles(dataDir: string, databasePath: string | null, log?: Logger): void {
  for (const path of privateFiles(dataDir, databasePath)) if (existsSync(path)) tighten(path, FILE_MODE, log);
}
