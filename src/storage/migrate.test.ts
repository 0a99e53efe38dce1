import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latestVersion, loadMigrations, migrate, migrationsDir } from './migrate.js';
import type { Driver } from './driver.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { ENGINES, freshPostgresUrl, type Engine } from '../../test/helpers/engines.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-migrate-'));
  dirs.push(dir);
  return dir;
};
const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const drop of drops.splice(0)) await drop();
});

/** An empty store of the engine (a SQLite file, or a fresh PostgreSQL schema) and a way to open it again. */
async function emptyStores(engine: Engine): Promise<() => Promise<Driver>> {
  if (engine === 'sqlite') {
    const path = join(tempDir(), 'store.sqlite3');
    return async () => openSqlite({ path });
  }
  const store = await freshPostgresUrl();
  drops.push(store.drop);
  return () => openPostgres({ url: store.url });
}
const emptyStore = async (engine: Engine): Promise<Driver> => (await emptyStores(engine))();

describe('sqlite driver options', () => {
  // SQLite only: its file's pragmas.
  it('opens with WAL, FULL sync and foreign keys', async () => {
    const db = openSqlite({ path: join(tempDir(), 'b.sqlite3') });
    expect(db.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.raw.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.raw.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.raw.pragma('busy_timeout', { simple: true })).toBe(5000);
    await db.close();
  });
});

describe.each(ENGINES)('migrate on %s', (engine) => {
  it('applies every migration once and records checksums', async () => {
    const db = await emptyStore(engine);
    const first = await migrate(db);
    const all = loadMigrations(migrationsDir(engine));
    expect(first.applied.map((m) => m.version)).toEqual(all.map((m) => m.version));
    expect(first.version).toBe(latestVersion(all));
    const again = await migrate(db);
    expect(again.applied).toEqual([]);
    const rows = await sqlRows<{ checksum: string }>(db, 'SELECT checksum FROM schema_migrations');
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
    await db.close();
  });

  it('migrates once when two processes start at once; the other finds the work done', async () => {
    const open = await emptyStores(engine);
    const [a, b] = [await open(), await open()];
    const results = await Promise.all([migrate(a), migrate(b)]);
    const counts = results.map((r) => r.applied.length).sort((x, y) => x - y);
    expect(counts).toEqual([0, loadMigrations(migrationsDir(engine)).length]);
    expect(results[0]?.version).toBe(results[1]?.version);
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a database written by a newer mnemo', async () => {
    const db = await emptyStore(engine);
    await migrate(db);
    await db.run(
      'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (9999, ?, ?, 0)',
      ['future', 'x'],
    );
    await expect(migrate(db)).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW' });
    await db.close();
  });

  it('refuses a migration edited after it was applied', async () => {
    const dir = tempDir();
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '0001_a.sql'), 'CREATE TABLE a (x INTEGER);');
    const db = await emptyStore(engine);
    await migrate(db, loadMigrations(migrations));
    writeFileSync(join(migrations, '0001_a.sql'), 'CREATE TABLE a (x TEXT);');
    await expect(migrate(db, loadMigrations(migrations))).rejects.toMatchObject({ code: 'MIGRATION_FAILED' });
    await db.close();
  });

  it('rolls back every migration of a run when one fails', async () => {
    const dir = tempDir();
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '0001_a.sql'), 'CREATE TABLE a (x INTEGER);');
    writeFileSync(join(migrations, '0002_b.sql'), 'CREATE TABLE b (x INTEGER); SELECT * FROM missing_table;');
    const db = await emptyStore(engine);
    await expect(migrate(db, loadMigrations(migrations))).rejects.toThrow(/missing_table/);
    const tables = await sqlRows<{ name: string }>(
      db,
      engine === 'sqlite'
        ? `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('a', 'schema_migrations')`
        : `SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_name IN ('a', 'schema_migrations')`,
    );
    expect(tables).toEqual([]);
    await db.close();
  });
});

// SQLite only: its one connection and the FIFO lock in front of it (PostgreSQL: src/storage/concurrency.test.ts).
describe('sqlite driver transactions', () => {
  it('serialises concurrent transactions and keeps outside writes out of an open one', async () => {
    const db = openSqlite({ path: ':memory:' });
    await db.exec('CREATE TABLE t (x INTEGER)');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.run('INSERT INTO t VALUES (1)');
      await gate;
      throw new Error('rollback');
    });
    const outside = db.run('INSERT INTO t VALUES (2)');
    release();
    await expect(tx).rejects.toThrow('rollback');
    await outside;
    expect(await sqlRows(db, 'SELECT x FROM t')).toEqual([{ x: 2 }]);
    await db.close();
  });
});
