// `mnemo eval --engine postgres`: the same harness on a fresh PostgreSQL schema, ranking as on SQLite.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freshPostgresUrl } from '../test/helpers/engines.js';
import { runMain } from '../test/helpers/process.js';
import { dulemonFixture, locomoFixture, readRecords, writeData } from './fixtures.js';
import { runEval } from './run.js';
import type { DatasetName } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-eval-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PG_SKIP = 'skipped: MNEMO_TEST_POSTGRES_URL is not set';
const skip = !process.env.MNEMO_TEST_POSTGRES_URL;

const DATA = {
  locomo: () => writeData(dir, 'locomo.json', JSON.stringify(locomoFixture)),
  dulemon: () => writeData(dir, 'dulemon.json', dulemonFixture.map((s) => JSON.stringify(s)).join('\n')),
} as const;

/** The eval schemas left in the database (each run drops its own). */
async function evalSchemas(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'mnemo_eval_%'`,
    );
    return rows.rows.map((r) => r.nspname);
  } finally {
    await client.end();
  }
}

describe(skip ? `mnemo eval on PostgreSQL (${PG_SKIP})` : 'mnemo eval on PostgreSQL', () => {
  it.skipIf(skip).each(['locomo', 'dulemon'] as const)(
    'ranks %s exactly as on SQLite, in a schema it drops',
    async (dataset: DatasetName & keyof typeof DATA) => {
      const store = await freshPostgresUrl();
      try {
        const database = { url: store.url, poolSize: 4, statementTimeoutMs: 30_000, ssl: 'disable' as const };
        const dataFile = DATA[dataset]();
        const runs = [];
        for (const engine of ['sqlite', 'postgres'] as const) {
          const result = await runEval({
            dataset,
            dataFile,
            outDir: join(dir, `${dataset}-${engine}`),
            ...(engine === 'postgres' ? { database } : {}),
          });
          if (!result.ok) throw new Error(result.issues.join('; '));
          expect(result.value.metrics.options.engine).toBe(engine);
          runs.push(readRecords(result.value.files.questions));
        }
        const [sqlite, postgres] = runs.map((records) => records.map((r) => [r.id, r.mnemo.ranked]));
        expect(postgres).toEqual(sqlite);
        expect(sqlite?.length).toBeGreaterThan(0);
        expect(await evalSchemas(store.url)).toEqual([]);
      } finally {
        await store.drop();
      }
    },
  );

  it.skipIf(skip)('stores into the given database, never falling back to SQLite', async () => {
    const store = await freshPostgresUrl();
    await store.drop();
    const url = new URL(store.url);
    url.pathname = '/mnemo_eval_no_such_database';
    const database = { url: url.toString(), poolSize: 1, statementTimeoutMs: 1_000, ssl: 'disable' as const };
    await expect(runEval({ dataset: 'locomo', dataFile: DATA.locomo(), database })).rejects.toThrow(
      /mnemo_eval_no_such_database/,
    );
  });

  it.skipIf(skip)('takes --engine postgres with the global --database-url', async () => {
    const store = await freshPostgresUrl();
    try {
      const out = join(dir, 'cli-pg');
      const args = ['--database-url', store.url, 'eval', 'locomo', '--engine', 'postgres'];
      const result = await runMain([...args, '--data', DATA.locomo(), '--out', out, '--subset', '1']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(join(out, 'report.md'));
    } finally {
      await store.drop();
    }
  });
});

describe('mnemo eval --engine postgres without a database', () => {
  it('stops with CONFIG_INVALID naming --database-url', async () => {
    vi.stubEnv('MNEMO_DATABASE_URL', '');
    try {
      const result = await runMain(['eval', 'locomo', '--engine', 'postgres', '--data', DATA.locomo()]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('CONFIG_INVALID');
      expect(result.stderr).toContain('--database-url');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
