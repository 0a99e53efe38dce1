// `mnemo eval --engine postgres` (and the engine bench): each run stores into a fresh schema of the given
// database, dropped after it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Config } from '../src/config.js';

export type DatabaseConfig = NonNullable<Config['database']>;

export interface EvalSchema {
  /** The run's database settings: the given ones, with `search_path` set to the fresh schema. */
  database: DatabaseConfig;
  schema: string;
  drop(): Promise<void>;
}

const sslOf = (ssl: DatabaseConfig['ssl']): pg.ClientConfig['ssl'] =>
  ssl === 'disable' ? undefined : { rejectUnauthorized: ssl === 'verify-full' };

async function run(database: DatabaseConfig, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: database.url, ssl: sslOf(database.ssl) });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates `<prefix>_<random>` (the role must be allowed to create schemas in the database). */
export async function createEvalSchema(database: DatabaseConfig, prefix = 'mnemo_eval'): Promise<EvalSchema> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  await run(database, `CREATE SCHEMA ${schema}`);
  const url = new URL(database.url);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    database: { ...database, url: url.toString() },
    schema,
    drop: () => run(database, `DROP SCHEMA ${schema} CASCADE`),
  };
}
