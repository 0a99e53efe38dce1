// The structural storage interface every stage talks to: SQLite (embedded default) or PostgreSQL. Reads
// parse their rows through small schemas (storage/rows.ts), never casts.
import type { z } from 'zod';

/** Arrays only for PostgreSQL (`= ANY(?::text[])`, `unnest`). */
export type SqlValue =
  string | number | bigint | null | Uint8Array | boolean | readonly (string | number | null)[];

export type Dialect = 'sqlite' | 'postgres';

export interface Queryable {
  /** The engine behind it: stages stay engine-neutral; engine code (indexes, a few statements) branches on it. */
  readonly dialect: Dialect;
  /** Every row, parsed by `schema`. Placeholders are `?`. */
  all<S extends z.ZodType>(schema: S, sql: string, params?: readonly SqlValue[]): Promise<z.output<S>[]>;
  /** The first row, parsed by `schema`, or undefined. */
  one<S extends z.ZodType>(
    schema: S,
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<z.output<S> | undefined>;
  /** A statement that returns no rows; `changes` counts the rows it wrote. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  exec(sql: string): Promise<void>;
  /**
   * Inside a transaction: waits until no other transaction writes this owner's ordered data (its events,
   * documents and publications), until the end of this one. invariant: the writers of one owner commit in
   * the order they took its sequence numbers, so per-owner cursors never skip a row committed late (test:
   * src/storage/concurrency.test.ts). SQLite's single writer gives this already.
   */
  lockOwner(owner: string): Promise<void>;
  /** Like lockOwner, but answers false at once when another transaction holds the owner. */
  tryLockOwner(owner: string): Promise<boolean>;
}

export interface Driver extends Queryable {
  /** invariant: the callback awaits nothing but the `tx` it is given (no I/O, no timers). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
