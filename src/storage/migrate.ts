// Numbered SQL migrations, applied in one transaction and recorded with a checksum.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MemoryError } from '../errors.js';
import type { Dialect, Driver } from './driver.js';
import { int, row, str } from './rows.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: Array<{ version: number; name: string }>;
  version: number;
}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** Each engine's numbered migrations; every migration has a twin of the same name for the other engine. */
export function migrationsDir(dialect: Dialect = 'sqlite'): string {
  return fileURLToPath(new URL(`./migrations/${dialect}/`, import.meta.url));
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  if (!existsSync(dir)) throw new MemoryError('MIGRATION_FAILED', `migrations folder not found: ${dir}`);
  return readdirSync(dir)
    .flatMap((file) => {
      const match = FILE_PATTERN.exec(file);
      if (!match?.[1] || !match[2]) return [];
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      return [{ version: Number(match[1]), name: match[2], sql, checksum }];
    })
    .sort((a, b) => a.version - b.version);
}

export const latestVersion = (migrations = loadMigrations()): number => migrations.at(-1)?.version ?? 0;

const AppliedRow = row({ version: int, name: str, checksum: str });

/** Several processes may start at once on one PostgreSQL database: one migrates, the others wait for it. */
const MIGRATION_LOCK = 'mnemo:migrate';

export async function migrate(
  driver: Driver,
  migrations = loadMigrations(migrationsDir(driver.dialect)),
): Promise<MigrationResult> {
  return driver.transaction(async (tx) => {
    await tx.lockOwner(MIGRATION_LOCK);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
    const rows = await tx.all(
      AppliedRow,
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    );
    const known = new Map(migrations.map((m) => [m.version, m]));
    const latest = latestVersion(migrations);
    for (const row of rows) {
      if (row.version > latest) {
        throw new MemoryError(
          'SCHEMA_TOO_NEW',
          `the database is at schema version ${row.version}, this mnemo knows up to ${latest}; upgrade mnemo`,
          { database_version: row.version, code_version: latest },
        );
      }
      const mine = known.get(row.version);
      if (mine && mine.checksum !== row.checksum) {
        throw new MemoryError(
          'MIGRATION_FAILED',
          `migration ${row.version}_${row.name} was changed after it was applied (checksum mismatch)`,
          { version: row.version },
        );
      }
    }
    const done = new Set(rows.map((r) => r.version));
    const applied: MigrationResult['applied'] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.run(
        'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)',
        [m.version, m.name, m.checksum, Date.now()],
      );
      applied.push({ version: m.version, name: m.name });
    }
    return { applied, version: Math.max(latest, ...rows.map((r) => r.version)) };
  });
}
