// One suite, two drivers: every store test runs on SQLite, and on PostgreSQL when a server is given
// (MNEMO_TEST_POSTGRES_URL, an administrator's URL; `.ci/run` starts a throwaway cluster and sets it).
// Each PostgreSQL store is a fresh schema, used by a role without BYPASSRLS, so row-level security is on.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../../src/config.js';
import { openMemory, type MemoryService, type MemoryServiceOptions } from '../../src/service.js';

export type Engine = 'sqlite' | 'postgres';

const ADMIN_URL = process.env.MNEMO_TEST_POSTGRES_URL;

/** The engines this run tests: SQLite always, PostgreSQL when a server was given. */
export const ENGINES: readonly Engine[] = ADMIN_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** The application role the tests connect as: not a superuser, does not bypass row-level security. */
export const APP_ROLE = 'mnemo_test_app';
const APP_PASSWORD = 'mnemo-test-app';

let prepared: Promise<string> | undefined;

/** Creates the app role and its database once per process; answers the database's URL for the app role. */
async function appDatabase(): Promise<string> {
  if (!ADMIN_URL) throw new Error('MNEMO_TEST_POSTGRES_URL is not set');
  prepared ??= (async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
      if (role.rowCount === 0) {
        await admin
          .query(`CREATE ROLE ${APP_ROLE} LOGIN PASSWORD '${APP_PASSWORD}' NOSUPERUSER NOBYPASSRLS`)
          .catch((error: { code?: string }) => {
            if (error.code !== '23505' && error.code !== '42710') throw error;
          });
      }
      const db = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [APP_ROLE]);
      if (db.rowCount === 0) {
        await admin
          .query(`CREATE DATABASE ${APP_ROLE} OWNER ${APP_ROLE}`)
          .catch((error: { code?: string }) => {
            if (error.code !== '42P04' && error.code !== '23505') throw error;
          });
      }
    } finally {
      await admin.end();
    }
    const url = new URL(ADMIN_URL);
    url.username = APP_ROLE;
    url.password = APP_PASSWORD;
    url.pathname = `/${APP_ROLE}`;
    return url.toString();
  })();
  return prepared;
}

/** A fresh, empty PostgreSQL schema for one store; `drop` removes it. */
export async function freshPostgresUrl(): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  const base = await appDatabase();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

/** The config slice that points a service at the PostgreSQL store at `url`. */
export const postgresConfig = (url: string): Pick<Config, 'database'> => ({
  database: { url, poolSize: 4, statementTimeoutMs: 30_000, ssl: 'disable' },
});

export interface TestService {
  service: MemoryService;
  /** For PostgreSQL: the store's URL (another process may open the same store). */
  url?: string;
  close(): Promise<void>;
}

/** A store on `engine` with every migration: SQLite in memory (or `databasePath`), PostgreSQL in a fresh schema. */
export async function openTestService(
  engine: Engine,
  options: Omit<MemoryServiceOptions, 'config'> & {
    config?: Partial<Config>;
  } = {},
): Promise<TestService> {
  const config = {
    dataDir: 'unused',
    redactEmails: true,
    ...options.config,
  } as MemoryServiceOptions['config'];
  if (engine === 'sqlite') {
    const service = await openMemory({ databasePath: ':memory:', ...options, config });
    return { service, close: () => service.close() };
  }
  const store = await freshPostgresUrl();
  // The data directory still holds the redaction key.
  const dataDir = config.dataDir === 'unused' ? mkdtempSync(join(tmpdir(), 'mnemo-pg-')) : config.dataDir;
  const service = await openMemory({
    ...options,
    config: {
      ...config,
      dataDir,
      ...postgresConfig(store.url),
    },
  });
  return {
    service,
    url: store.url,
    async close() {
      await service.close();
      await store.drop();
      if (dataDir !== config.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The config slice that points a server at a fresh store of `engine` (PostgreSQL: a fresh schema). */
export async function engineConfig(
  engine: Engine,
): Promise<{ config: Partial<Config>; drop(): Promise<void> }> {
  if (engine === 'sqlite') return { config: {}, drop: async () => {} };
  const store = await freshPostgresUrl();
  return {
    config: postgresConfig(store.url),
    drop: () => store.drop(),
  };
}

export interface SharedStore {
  /** Services on one database, as separate processes would be: each with its own connections. */
  services: MemoryService[];
  close(): Promise<void>;
}

/**
 * `count` services on one store of `engine`: one SQLite file in WAL mode, or one PostgreSQL schema with a
 * pool per service; they share a data directory (one redaction key), as processes on one machine would.
 */
export async function openSharedStore(
  engine: Engine,
  count: number,
  options: { now?: () => number; poolSize?: number } = {},
): Promise<SharedStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-shared-'));
  const store = engine === 'postgres' ? await freshPostgresUrl() : undefined;
  const database = store
    ? { database: { ...postgresConfig(store.url).database, poolSize: options.poolSize ?? 4 } }
    : {};
  const services: MemoryService[] = [];
  for (let i = 0; i < count; i++) {
    const config = { dataDir, redactEmails: true, ...database } as MemoryServiceOptions['config'];
    services.push(await openMemory({ config, ...(options.now ? { now: options.now } : {}) }));
  }
  return {
    services,
    async close() {
      await Promise.all(services.map((s) => s.close()));
      await store?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
