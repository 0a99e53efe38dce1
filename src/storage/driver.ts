// The structural storage interface every stage talks to; SQLite now, PostgreSQL later.

export type SqlValue = string | number | bigint | null | Uint8Array;

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

export type Dialect = 'sqlite' | 'postgres';

export interface Queryable {
  /** The engine behind it: stages stay engine-neutral; only engine code (the search index) branches on it. */
  readonly dialect: Dialect;
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  exec(sql: string): Promise<void>;
}

export interface Driver extends Queryable {
  /** invariant: the callback awaits nothing but the `tx` it is given (no I/O, no timers). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
