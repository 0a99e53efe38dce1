// `mnemo eval <dataset>`: runs the recall benchmark harness in eval/ and prints where the results went.
import type { DatasetName } from '../../../eval/types.js';
import { loadConfig, type Config } from '../../config.js';
import { MemoryError } from '../../errors.js';

export interface EvalCommandOptions {
  data?: string;
  k: number[];
  out?: string;
  subset?: number;
  baseline: boolean;
  embed: boolean;
  /** commander's `--no-observe`: false asks without running the heuristic observer first. */
  observe: boolean;
  engine: 'sqlite' | 'postgres';
}

const EMBED_MISSING =
  '--embed measures the vector channel with a real embedding model: set MNEMO_EMBED_BASE_URL and ' +
  'MNEMO_EMBED_MODEL (e.g. MNEMO_EMBED_BASE_URL=http://127.0.0.1:11434/v1 MNEMO_EMBED_MODEL=bge-m3)';

/** The embedding settings as the server reads them; throws CONFIG_INVALID when they are missing or bad. */
function embedConfig() {
  const { embed } = loadConfig();
  if (!embed)
    throw new MemoryError('CONFIG_INVALID', EMBED_MISSING, {
      issues: [{ path: 'embed', message: EMBED_MISSING }],
    });
  return embed;
}

const DATABASE_MISSING =
  '--engine postgres stores the run in a fresh schema of a PostgreSQL database: give it with --database-url ' +
  'or MNEMO_DATABASE_URL (e.g. postgres://mnemo:secret@127.0.0.1:5432/mnemo)';

/** The database of `--engine postgres`; throws CONFIG_INVALID without one. */
function databaseConfig(database: Config['database']): NonNullable<Config['database']> {
  if (!database)
    throw new MemoryError('CONFIG_INVALID', DATABASE_MISSING, {
      issues: [{ path: 'database.url', message: DATABASE_MISSING }],
    });
  return database;
}

/** `database`: the configured PostgreSQL settings (`--database-url`, `MNEMO_DATABASE_*`), if any. */
export async function evalCommand(
  dataset: DatasetName,
  options: EvalCommandOptions,
  io: { out: NodeJS.WritableStream; err: NodeJS.WriteStream },
  database?: Config['database'],
): Promise<number> {
  // Before anything is read: a run without its model would measure BM25 alone.
  const embed = options.embed ? embedConfig() : undefined;
  // SQLite unless asked: a MNEMO_DATABASE_URL set for the server does not move the benchmark's store.
  const store = options.engine === 'postgres' ? databaseConfig(database) : undefined;
  // Loaded on demand: the harness and its baseline library are only needed here.
  const { runEval } = await import('../../../eval/run.js');
  const { createProgress } = await import('../../../eval/progress.js');
  const result = await runEval({
    dataset,
    ks: options.k,
    baseline: options.baseline,
    observe: options.observe,
    ...(embed ? { embed } : {}),
    ...(store ? { database: store } : {}),
    progress: createProgress(io.err),
    ...(options.data !== undefined ? { dataFile: options.data } : {}),
    ...(options.out !== undefined ? { outDir: options.out } : {}),
    ...(options.subset !== undefined ? { subset: options.subset } : {}),
  });
  if (!result.ok) {
    for (const issue of result.issues) io.err.write(`mnemo eval: ${issue}\n`);
    return 2;
  }
  const { files } = result.value;
  io.out.write(`report   ${files.report}\nmetrics  ${files.metrics}\nqueries  ${files.questions}\n`);
  return 0;
}
