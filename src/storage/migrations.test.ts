// Schema parity: both engines' migrations give the same logical schema (tables, columns, keys), and every
// migration has a twin of the same name on the other engine.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, freshPostgresUrl } from '../../test/helpers/engines.js';
import { postgresSchema, sqliteSchema } from '../../test/helpers/schema.js';
import { sqlRows } from '../../test/helpers/sql.js';
import type { Driver } from './driver.js';
import { migrate, migrationsDir } from './migrate.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

/**
 * Tables only one engine has, each the engine's own way of doing the same thing:
 * - SQLite's full-text index: the FTS5 table `search_fts`, its shadow tables `search_fts_*`, and the
 *   fts5vocab table `search_postings` over it;
 * - PostgreSQL's full-text index: the postings table `search_terms`;
 * - the vector tables (`vec_docs` and its shadow tables), which the vector code creates at run time.
 */
const SQLITE_ONLY = (table: string) =>
  table === 'search_fts' ||
  table.startsWith('search_fts_') ||
  table === 'search_postings' ||
  table.startsWith('vec_');
const POSTGRES_ONLY = (table: string) => table === 'search_terms' || table.startsWith('vec_');

const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

async function migratedPostgres(): Promise<Driver> {
  const store = await freshPostgresUrl();
  drops.push(store.drop);
  const postgres = await openPostgres({ url: store.url });
  await migrate(postgres);
  return postgres;
}

describe('migrations per engine', () => {
  it('holds a twin of every migration, of the same name, for each engine', () => {
    const names = (dialect: 'sqlite' | 'postgres') =>
      readdirSync(migrationsDir(dialect))
        .filter((f) => f.endsWith('.sql'))
        .sort();
    expect(names('postgres')).toEqual(names('sqlite'));
    expect(names('sqlite').length).toBeGreaterThan(0);
  });

  it.runIf(ENGINES.includes('postgres'))(
    'gives the same tables, columns and keys on both engines',
    async () => {
      const sqlite = openSqlite({ path: ':memory:' });
      await migrate(sqlite);
      const postgres = await migratedPostgres();
      try {
        const expected = await sqliteSchema(sqlite, SQLITE_ONLY);
        expect(Object.keys(expected)).toContain('events');
        expect(await postgresSchema(postgres, POSTGRES_ONLY)).toEqual(expected);
      } finally {
        await Promise.all([sqlite.close(), postgres.close()]);
      }
    },
  );

  it.runIf(ENGINES.includes('postgres'))(
    'puts every PostgreSQL table with an owner column behind row-level security',
    async () => {
      const postgres = await migratedPostgres();
      try {
        // Forced for the tables' owner too (the service's role creates them), for reads and writes alike.
        const guarded = await sqlRows<{
          table: string;
          rls: boolean;
          forced: boolean;
          policy: string | null;
        }>(
          postgres,
          `SELECT c.relname AS table, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
                (SELECT p.qual || ' / ' || p.with_check FROM pg_policies p
                  WHERE p.schemaname = current_schema() AND p.tablename = c.relname) AS policy
           FROM information_schema.columns col
           JOIN pg_class c ON c.relname = col.table_name AND c.relnamespace = current_schema()::regnamespace
          WHERE col.table_schema = current_schema() AND col.column_name = 'owner' ORDER BY c.relname`,
        );
        expect(guarded.length).toBeGreaterThanOrEqual(10);
        const policy = 'mnemo_owner_allowed(owner) / mnemo_owner_allowed(owner)';
        expect(guarded).toEqual(guarded.map((g) => ({ table: g.table, rls: true, forced: true, policy })));
      } finally {
        await postgres.close();
      }
    },
  );
});
