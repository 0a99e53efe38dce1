// The embedded default driver: better-sqlite3 with WAL, FULL sync and foreign keys.
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { MemoryError } from '../errors.js';
import type { z } from 'zod';
import type { Driver, Queryable, SqlValue } from './driver.js';
import { rethrowFault } from './faults.js';
import { Mutex } from './mutex.js';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  busyTimeoutMs?: number;
  readonly?: boolean;
  /** Load sqlite-vec (vec0 tables); only when the vector channel is configured. */
  vectors?: boolean;
}

type Statement = Database.Statement<unknown[]>;

function loadVectors(db: Database.Database): void {
  try {
    sqliteVec.load(db);
  } catch (error) {
    db.close();
    const why = error instanceof Error ? error.message : String(error);
    const message = `the vector channel needs sqlite-vec, which did not load: ${why}`;
    throw new MemoryError('CONFIG_INVALID', message, { issues: [{ path: 'embed', message: why }] });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

export function openSqlite(options: SqliteOptions): Driver & { readonly raw: Database.Database } {
  const db = new Database(options.path, { readonly: options.readonly ?? false });
  const busyMs = options.busyTimeoutMs ?? 5000;
  db.pragma(`busy_timeout = ${busyMs}`);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    // invariant: acknowledged writes survive power loss (NORMAL only survives process crashes).
    db.pragma('synchronous = FULL');
    // invariant: deleted content is overwritten with zeros, so a forgotten item's bytes leave the file
    // (test: src/knowledge/forget-bytes.test.ts).
    db.pragma('secure_delete = ON');
  }
  db.pragma('foreign_keys = ON');
  if (options.vectors) loadVectors(db);

  const cache = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      if (cache.size > 500) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };

  // invariant: a full disk, a read-only or locked database reach callers as STORAGE_UNAVAILABLE
  // (test: src/storage/faults.test.ts).
  const safely = <R>(fn: () => R): R => {
    try {
      return fn();
    } catch (error) {
      return rethrowFault(error);
    }
  };
  const rowsOf = (sql: string, params: readonly SqlValue[]): unknown[] => {
    const stmt = prepare(sql);
    return stmt.reader ? stmt.all(...params) : (stmt.run(...params), []);
  };
  const direct: Queryable = {
    dialect: 'sqlite',
    async all<S extends z.ZodType>(schema: S, sql: string, params: readonly SqlValue[] = []) {
      return safely(() => rowsOf(sql, params)).map((r) => schema.parse(r) as z.output<S>);
    },
    async one<S extends z.ZodType>(schema: S, sql: string, params: readonly SqlValue[] = []) {
      const found = safely(() => prepare(sql).get(...params));
      return found === undefined ? undefined : (schema.parse(found) as z.output<S>);
    },
    async run(sql: string, params: readonly SqlValue[] = []) {
      return safely(() => ({ changes: prepare(sql).run(...params).changes }));
    },
    async exec(sql: string) {
      safely(() => db.exec(sql));
    },
    // A single connection is the only writer: a transaction already holds every owner.
    lockOwner: async () => {},
    tryLockOwner: async () => true,
  };

  /**
   * invariant: waiting for another connection's write lock never blocks the thread: the wait is a timer, so
   * the holder (another process, or another store of this one) goes on meanwhile (test:
   * src/storage/concurrency.test.ts). Uncontended, BEGIN IMMEDIATE succeeds at once as before.
   */
  // SQLite applies busy_timeout when the pragma is compiled, so a prepared statement would not do (exec: ~1 µs).
  const begin = async (): Promise<void> => {
    const deadline = Date.now() + busyMs;
    for (let pause = 1; ; pause = Math.min(2 * pause, 25)) {
      db.exec('PRAGMA busy_timeout = 0');
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) rethrowFault(error);
      } finally {
        db.exec(`PRAGMA busy_timeout = ${busyMs}`);
      }
      await sleep(pause);
    }
  };

  const lock = new Mutex();
  // Calls outside a transaction wait while one is open, so they never join it by accident.
  const guarded = async <R>(fn: () => Promise<R>): Promise<R> => {
    if (!lock.locked) return fn();
    await lock.acquire();
    try {
      return await fn();
    } finally {
      lock.release();
    }
  };

  return {
    dialect: 'sqlite',
    raw: db,
    all: <S extends z.ZodType>(schema: S, sql: string, params?: readonly SqlValue[]) =>
      guarded(() => direct.all(schema, sql, params)),
    one: <S extends z.ZodType>(schema: S, sql: string, params?: readonly SqlValue[]) =>
      guarded(() => direct.one(schema, sql, params)),
    run: (sql: string, params?: readonly SqlValue[]) => guarded(() => direct.run(sql, params)),
    exec: (sql: string) => guarded(() => direct.exec(sql)),
    lockOwner: direct.lockOwner,
    tryLockOwner: direct.tryLockOwner,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      await lock.acquire();
      try {
        await begin();
        try {
          const result = await fn(direct);
          safely(() => db.exec('COMMIT'));
          return result;
        } catch (error) {
          // A rollback that fails too (the disk is gone) must not hide the first error.
          if (db.inTransaction) safely(() => db.exec('ROLLBACK'));
          throw error;
        }
      } finally {
        lock.release();
      }
    },
    async close() {
      await lock.acquire();
      try {
        if (db.open) db.close();
      } finally {
        lock.release();
      }
    },
  };
}
