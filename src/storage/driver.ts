// The structural storage interface every stage talks to; SQLite now, PostgreSQL later.

export type SqlValue = string | number | bigint | null | Uint8Array;

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  exec(sql: string): Promise<void>;
}

export interface Driver extends Queryable {
  readonly dialect: 'sqlite' | 'postgres';
  /** invariant: the callback awaits nothing but the `tx` it is given (no I/O, no timers). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
