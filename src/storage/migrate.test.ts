import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latestVersion, loadMigrations, migrate } from './migrate.js';
import { openSqlite } from './sqlite.js';
import { sqlRows } from '../../test/helpers/sql.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-migrate-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migrate', () => {
  it('applies every migration once and records checksums', async () => {
    const db = openSqlite({ path: join(tempDir(), 'a.sqlite3') });
    const first = await migrate(db);
    expect(first.applied.map((m) => m.version)).toEqual(loadMigrations().map((m) => m.version));
    expect(first.version).toBe(latestVersion());
    const again = await migrate(db);
    expect(again.applied).toEqual([]);
    const rows = await sqlRows<{ checksum: string }>(db, 'SELECT checksum FROM schema_migrations');
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
    await db.close();
  });

  it('opens with WAL, FULL sync and foreign keys', async () => {
    const db = openSqlite({ path: join(tempDir(), 'b.sqlite3') });
    expect(db.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.raw.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.raw.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.raw.pragma('busy_timeout', { simple: true })).toBe(5000);
    await db.close();
  });

  it('refuses a database written by a newer mnemo', async () => {
    const path = join(tempDir(), 'c.sqlite3');
    const db = openSqlite({ path });
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
    const db = openSqlite({ path: join(dir, 'd.sqlite3') });
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
    const db = openSqlite({ path: join(dir, 'e.sqlite3') });
    await expect(migrate(db, loadMigrations(migrations))).rejects.toThrow(/missing_table/);
    const tables = await sqlRows<{ name: string }>(
      db,
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'a'`,
    );
    expect(tables).toEqual([]);
    await db.close();
  });
});

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
