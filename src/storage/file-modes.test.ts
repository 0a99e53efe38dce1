// Regression (issue 8): the data directory is 0700 and the database, WAL and key files 0600, even when the
// directory already existed with wider modes; a wider mode found on start is fixed with a warning.
// SQLite only: the modes of its database files (PostgreSQL keeps only the token and key here: service.test.ts).
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempDirs } from '../../test/helpers/temp.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { openMemory } from '../service.js';

const temp = createTempDirs();
afterEach(() => temp.cleanup());

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

async function openAndWrite(dir: string, lines: string[] = []) {
  const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const service = await openMemory({ config: { dataDir: dir, redactEmails: true }, log });
  await createLocalClient(createMethodTable(service)).call('memory.events.ingest', {
    owner: 'o',
    events: [{ event_id: 'e1', kind: 'note', role: 'user', at: 1, text: 'private note' }],
  });
  return service;
}

describe('data directory modes', () => {
  it('creates the directory 0700 and the database, WAL and SHM 0600 under a permissive umask', async () => {
    const previous = process.umask(0o000);
    const dir = join(temp.make(), 'data');
    try {
      const service = await openAndWrite(dir);
      expect(mode(dir)).toBe('700');
      for (const file of ['mnemo.sqlite3', 'mnemo.sqlite3-wal', 'mnemo.sqlite3-shm']) {
        expect(mode(join(dir, file)), file).toBe('600');
      }
      await service.close();
    } finally {
      process.umask(previous);
    }
  });

  it('fixes wider modes of an existing directory and its files, and warns', async () => {
    const dir = join(temp.make(), 'data');
    await (await openAndWrite(dir)).close();
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'mnemo.sqlite3'), 0o644);
    const lines: string[] = [];
    const service = await openAndWrite(dir, lines);
    expect(mode(dir)).toBe('700');
    expect(mode(join(dir, 'mnemo.sqlite3'))).toBe('600');
    const warnings = lines.filter((l) => l.includes('mode was too wide'));
    expect(warnings.map((l) => (JSON.parse(l) as { path: string }).path).sort()).toEqual([
      'data',
      'mnemo.sqlite3',
    ]);
    await service.close();
  });
});
