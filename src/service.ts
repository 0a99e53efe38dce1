// Composition root: open storage, migrate, build the stages, close cleanly.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from './config.js';
import { openEmbedding, type Embedding } from './embed/embed.js';
import { MemoryError } from './errors.js';
import { inlinePreparer, type Preparer } from './ingest/prepare.js';
import { createPreparePool } from './ingest/prepare-pool.js';
import type { Driver, Queryable } from './storage/driver.js';
import { migrate, type MigrationResult } from './storage/migrate.js';
import { openSqlite } from './storage/sqlite.js';
import { describeUrl, openPostgres } from './storage/postgres.js';
import { secureDataDir, tightenFiles } from './storage/file-modes.js';
import { ensureSecretFile } from './storage/secret-file.js';
import { rehashRedactedEvents } from './ingest/rehash.js';
import { renormMemories } from './knowledge/knowledge.js';
import { row as rowSchema, str } from './storage/rows.js';

const ValueRow = rowSchema({ value: str });
import { createRedactor, type Redactor } from './text/redact.js';
import { silentLogger, type Logger } from './log.js';
import { rebuildIndex, rebuildPending } from './reindex.js';

export interface MemoryServiceOptions {
  config: Pick<Config, 'dataDir' | 'redactEmails'> & Partial<Config>;
  /** Overrides the database file (':memory:' in unit tests). */
  databasePath?: string;
  /** An open store instead of the configured one (tests: PGlite); the service migrates and closes it. */
  driver?: Driver;
  log?: Logger;
  now?: () => number;
}

export interface MemoryService {
  readonly driver: Driver;
  readonly config: MemoryServiceOptions['config'];
  readonly redactor: Redactor;
  readonly salt: string;
  readonly migration: MigrationResult;
  readonly log: Logger;
  readonly databasePath: string;
  /** Prepares ingest calls (redaction, tokenization), on worker threads when configured. */
  readonly preparer: Preparer;
  /** The vector channel, when an embedding provider is configured. */
  readonly embedding: Embedding | undefined;
  now(): number;
  close(): Promise<void>;
}

async function storeSalt(db: Queryable): Promise<string> {
  await db.run(`INSERT INTO settings (key, value) VALUES ('salt', ?) ON CONFLICT (key) DO NOTHING`, [
    randomBytes(32).toString('hex'),
  ]);
  const row = await db.one(ValueRow, `SELECT value FROM settings WHERE key = 'salt'`);
  if (!row) throw new MemoryError('INTERNAL', 'store salt missing');
  return row.value;
}

export const databaseFile = (dataDir: string): string => join(dataDir, 'mnemo.sqlite3');
/** The key of redaction fingerprints: a 0600 file beside the database, never inside it. */
export const redactionKeyPath = (dataDir: string): string => join(dataDir, 'redaction-key');

async function openDriver(options: MemoryServiceOptions, log: Logger) {
  const { database, dataDir } = options.config;
  if (options.driver) {
    secureDataDir(dataDir, null, log);
    return {
      driver: options.driver,
      databasePath: `a given ${options.driver.dialect} store`,
      keyOnDisk: true,
    };
  }
  if (database) {
    // The data directory still holds the HTTP token and the redaction key.
    secureDataDir(dataDir, null, log);
    const driver = await openPostgres({ ...database, log });
    return { driver, databasePath: describeUrl(database.url), keyOnDisk: true };
  }
  const databasePath = options.databasePath ?? databaseFile(dataDir);
  const onDisk = databasePath !== ':memory:';
  if (onDisk) secureDataDir(dataDir, databasePath, log);
  const driver = openSqlite({ path: databasePath, vectors: options.config.embed !== undefined });
  if (onDisk) tightenFiles(dataDir, databasePath, log);
  return { driver, databasePath, keyOnDisk: onDisk };
}

export async function openMemory(options: MemoryServiceOptions): Promise<MemoryService> {
  const log = options.log ?? silentLogger();
  const { driver, databasePath, keyOnDisk } = await openDriver(options, log);
  const onDisk = keyOnDisk;
  let migration: MigrationResult;
  let salt: string;
  try {
    migration = await migrate(driver);
    salt = await storeSalt(driver);
    const rehashed = await rehashRedactedEvents(driver, salt);
    if (rehashed > 0)
      log.info({ events: rehashed }, 'content hashes of redacted events moved onto their stored form');
    const renormed = await renormMemories(driver);
    if (renormed > 0) log.info({ memories: renormed }, 'normal forms of stored memories computed');
    if (await rebuildPending(driver)) {
      log.info('rebuilding the search index after an upgrade');
      const done = await rebuildIndex(driver, (p) => {
        if (p.done % 50_000 < 500 || p.done === p.total) log.info(p, 'rebuilding the search index');
      });
      log.info(done, 'search index rebuilt');
    }
  } catch (error) {
    await driver.close();
    throw error;
  }
  // invariant: finding fingerprints are keyed by a secret kept outside the database, so reading the file
  // is not enough to test guesses of a low-entropy secret (test: src/service.test.ts "redaction key").
  const fingerprintKey = onDisk
    ? (await ensureSecretFile(redactionKeyPath(options.config.dataDir))).secret
    : randomBytes(32).toString('base64url');
  if (onDisk) tightenFiles(options.config.dataDir, driver.dialect === 'sqlite' ? databasePath : null, log);
  const redactor = createRedactor({ emails: options.config.redactEmails, salt: fingerprintKey });
  const now = options.now ?? Date.now;
  let embedding: Embedding | undefined;
  try {
    embedding = options.config.embed
      ? await openEmbedding(driver, options.config.embed, { redactor, log })
      : undefined;
  } catch (error) {
    await driver.close();
    throw error;
  }
  const prepareContext = { redactor, salt };
  const preparer =
    (options.config.ingestWorkers ?? 0) > 0
      ? createPreparePool(prepareContext, {
          size: options.config.ingestWorkers ?? 0,
          redactEmails: options.config.redactEmails,
          fingerprintKey,
          log,
        })
      : inlinePreparer(prepareContext);
  return {
    driver,
    config: options.config,
    redactor,
    salt,
    migration,
    log,
    preparer,
    databasePath,
    embedding,
    now,
    async close() {
      await preparer.close();
      await driver.close();
    },
  };
}
