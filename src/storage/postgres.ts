// The PostgreSQL engine: a pool of connections, `?` placeholders numbered, the call's owner scope given to
// row-level security, store faults as STORAGE_UNAVAILABLE, and retries while the server comes up.
import pg from 'pg';
import type { z } from 'zod';
import { MemoryError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Driver, Queryable, SqlValue } from './driver.js';
import { rethrowFault, storageFault } from './faults.js';
import { numberPlaceholders } from './placeholders.js';
import { ownerScope, scopeSetting } from './scope.js';

export interface PostgresOptions {
  url: string;
  /** Connections at most (default 10). */
  poolSize?: number;
  /** Longest a statement may run (default 30 s). */
  statementTimeoutMs?: number;
  /** `disable`, `require` (encrypted, any certificate) or `verify-full` (the CA must vouch for the host). */
  ssl?: 'disable' | 'require' | 'verify-full';
  /** Attempts to reach the server at start, one a second (default 15). */
  connectAttempts?: number;
  log?: Logger;
}

type Client = pg.PoolClient & { mnemoScope?: string; mnemoWatched?: boolean };

const sslOption = (ssl: PostgresOptions['ssl']): pg.PoolConfig['ssl'] =>
  ssl === 'require'
    ? { rejectUnauthorized: false }
    : ssl === 'verify-full'
      ? { rejectUnauthorized: true }
      : undefined;

/** Where the URL points, without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'the configured server';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** bigint (int8) and numeric as JS numbers while they fit: counts and sums read alike on both engines. */
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20 || oid === 1700) {
      return (value: string) => {
        const n = Number(value);
        return Number.isSafeInteger(n) || (oid === 1700 && Number.isFinite(n)) ? n : value;
      };
    }
    return pg.types.getTypeParser(oid, format as never);
  },
};

export async function openPostgres(options: PostgresOptions): Promise<Driver> {
  const pool = new pg.Pool({
    types,
    connectionString: options.url,
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    ...(options.ssl && options.ssl !== 'disable' ? { ssl: sslOption(options.ssl) } : {}),
  });
  // An idle client that loses its connection must not crash the process; the next checkout reconnects.
  pool.on('error', (error) => options.log?.warn({ err: error }, 'postgres connection lost'));

  const attempts = options.connectAttempts ?? 15;
  for (let n = 1; ; n++) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (error) {
      if (n >= attempts) {
        await pool.end();
        throw new MemoryError(
          'STORAGE_UNAVAILABLE',
          `cannot reach the PostgreSQL server at ${describeUrl(options.url)} after ${n} attempts`,
          { reason: (error as { code?: string }).code ?? 'CONNECT' },
          { cause: error },
        );
      }
      options.log?.warn({ attempt: n, err: error }, 'postgres not reachable yet; retrying');
      await sleep(1_000);
    }
  }

  /** The call's owner scope on this connection, set only when it differs from what the connection has. */
  const scoped = async (client: Client): Promise<void> => {
    const want = scopeSetting(ownerScope());
    if (client.mnemoScope === want) return;
    await client.query(`SELECT set_config('mnemo.owners', $1, false)`, [want]);
    client.mnemoScope = want;
  };

  const on = (client: Client): Queryable => {
    const exec = async (sql: string, params: readonly SqlValue[]) => {
      try {
        return await client.query({ text: numberPlaceholders(sql), values: params as unknown[] });
      } catch (error) {
        return rethrowFault(error);
      }
    };
    return {
      dialect: 'postgres',
      async all<S extends z.ZodType>(schema: S, sql: string, params: readonly SqlValue[] = []) {
        return (await exec(sql, params)).rows.map((r) => schema.parse(r) as z.output<S>);
      },
      async one<S extends z.ZodType>(schema: S, sql: string, params: readonly SqlValue[] = []) {
        const [first] = (await exec(sql, params)).rows;
        return first === undefined ? undefined : (schema.parse(first) as z.output<S>);
      },
      async run(sql: string, params: readonly SqlValue[] = []) {
        return { changes: (await exec(sql, params)).rowCount ?? 0 };
      },
      async exec(sql: string) {
        try {
          await client.query(sql);
        } catch (error) {
          rethrowFault(error);
        }
      },
      async lockOwner(owner: string) {
        await exec('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [owner]);
      },
      async tryLockOwner(owner: string) {
        const result = await exec('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS ok', [owner]);
        return (result.rows[0] as { ok?: boolean } | undefined)?.ok === true;
      },
    };
  };

  const checkout = async (): Promise<Client> => {
    try {
      const client = (await pool.connect()) as Client;
      // invariant: a connection that drops while checked out fails its call, never the process (an 'error'
      // event without a listener would be thrown; test: src/storage/postgres-faults.test.ts).
      if (!client.mnemoWatched) {
        client.mnemoWatched = true;
        client.on('error', (error) => options.log?.warn({ err: error }, 'postgres connection lost'));
      }
      try {
        await scoped(client);
      } catch (error) {
        client.release(true);
        throw error;
      }
      return client;
    } catch (error) {
      throw storageFault(error) ?? error;
    }
  };

  const once = async <R>(fn: (q: Queryable) => Promise<R>): Promise<R> => {
    const client = await checkout();
    try {
      return await fn(on(client));
    } finally {
      client.release();
    }
  };

  let closed = false;
  return {
    dialect: 'postgres',
    all: (schema, sql, params) => once((q) => q.all(schema, sql, params)),
    one: (schema, sql, params) => once((q) => q.one(schema, sql, params)),
    run: (sql, params) => once((q) => q.run(sql, params)),
    exec: (sql) => once((q) => q.exec(sql)),
    // Outside a transaction an advisory transaction lock would end with its own statement.
    lockOwner: async () => {},
    tryLockOwner: async () => true,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await checkout();
      const tx = on(client);
      try {
        await tx.exec('BEGIN');
        const result = await fn(tx);
        await tx.exec('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
