// PGlite (PostgreSQL 18 compiled to WebAssembly, in this process) behind the Driver interface, with
// pgvector: the PostgreSQL migrations, index and vector code run on it where the server has no pgvector
// (Debian ships none). Statements run as a role without BYPASSRLS, so row-level security is on.
// What PGlite cannot show: it is one connection, so statements never run at once and an advisory lock is
// always granted; lock waits, SKIP LOCKED and leases between processes are tested on the real server
// (MNEMO_TEST_POSTGRES_URL).
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { z } from 'zod';
import type { Driver, Queryable, SqlValue } from '../../src/storage/driver.js';
import { rethrowFault } from '../../src/storage/faults.js';
import { migrate } from '../../src/storage/migrate.js';
import { Mutex } from '../../src/storage/mutex.js';
import { numberPlaceholders } from '../../src/storage/placeholders.js';
import { ownerScope, scopeSetting } from '../../src/storage/scope.js';

const APP_ROLE = 'mnemo_app';

/**
 * A database with every migration, to clone for each test (a clone takes well under a second, a start
 * several). With `pgvector`, an administrator has created the extension, as the README asks.
 */
export async function createPgliteTemplate(options: { pgvector?: boolean } = {}): Promise<PGlite> {
  const db = await PGlite.create({ extensions: { vector } });
  await db.exec(
    `CREATE ROLE ${APP_ROLE} NOSUPERUSER NOBYPASSRLS;
     GRANT ALL ON SCHEMA public TO ${APP_ROLE};
     ${options.pgvector === false ? '' : 'CREATE EXTENSION vector;'}`,
  );
  const driver = pgliteDriver(db);
  await migrate(driver);
  await driver.close();
  return db;
}

/** A Driver over one PGlite database; close() leaves the database open (the test owns it). */
export function pgliteDriver(db: PGliteInterface): Driver {
  let scope: string | undefined;
  let role = false;
  const prepare = async () => {
    // A clone starts a new session: the role and the owner scope are set again.
    if (!role) {
      await db.exec(`SET ROLE ${APP_ROLE}`);
      role = true;
    }
    const want = scopeSetting(ownerScope());
    if (scope !== want) {
      await db.query(`SELECT set_config('mnemo.owners', $1, false)`, [want]);
      scope = want;
    }
  };
  const query = async (sql: string, params: readonly SqlValue[]) => {
    try {
      await prepare();
      return await db.query<Record<string, unknown>>(numberPlaceholders(sql), params as unknown[]);
    } catch (error) {
      return rethrowFault(error);
    }
  };
  const direct: Queryable = {
    dialect: 'postgres',
    async all<S extends z.ZodType>(schema: S, sql: string, params: readonly SqlValue[] = []) {
      return (await query(sql, params)).rows.map((r) => schema.parse(r) as z.output<S>);
    },
    async one<S extends z.ZodType>(schema: S, sql: string, params: readonly SqlValue[] = []) {
      const [first] = (await query(sql, params)).rows;
      return first === undefined ? undefined : (schema.parse(first) as z.output<S>);
    },
    async run(sql: string, params: readonly SqlValue[] = []) {
      return { changes: (await query(sql, params)).affectedRows ?? 0 };
    },
    async exec(sql: string) {
      try {
        await prepare();
        await db.exec(sql);
      } catch (error) {
        rethrowFault(error);
      }
    },
    // One connection: the lock is always this session's (statements as on the server, waits never).
    lockOwner: async (key) =>
      void (await query('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key])),
    tryLockOwner: async () => true,
  };

  const lock = new Mutex();
  // Calls outside a transaction wait while one is open, so they never join it by accident.
  const alone = async <R>(fn: () => Promise<R>): Promise<R> => {
    await lock.acquire();
    try {
      return await fn();
    } finally {
      lock.release();
    }
  };
  return {
    dialect: 'postgres',
    all: (schema, sql, params) => alone(() => direct.all(schema, sql, params)),
    one: (schema, sql, params) => alone(() => direct.one(schema, sql, params)),
    run: (sql, params) => alone(() => direct.run(sql, params)),
    exec: (sql) => alone(() => direct.exec(sql)),
    lockOwner: async () => {},
    tryLockOwner: async () => true,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      alone(async () => {
        await direct.exec('BEGIN');
        try {
          const result = await fn(direct);
          await direct.exec('COMMIT');
          return result;
        } catch (error) {
          await db.exec('ROLLBACK').catch(() => undefined);
          scope = undefined; // a setting made inside the transaction is rolled back with it
          throw error;
        }
      }),
    close: async () => {},
  };
}
