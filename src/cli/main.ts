// The mnemo CLI: serve, mcp, ingest, recall, forget, status, token, organize, reindex, projection, inspect, eval.
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { loadConfig, type ConfigOverrides } from '../config.js';
import { isMemoryError } from '../errors.js';
import { VERSION } from '../version.js';
import { evalCommand, type EvalCommandOptions } from './commands/eval.js';

interface GlobalOptions {
  dataDir?: string;
  socket?: string;
  owner?: string;
  url?: string;
  databaseUrl?: string;
}

const positiveInt = (max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new InvalidArgumentError(`expected an integer 1..${max}`);
  return n;
};

const kList = (value: string): number[] => {
  const ks = value.split(',').map((part) => Number(part.trim()));
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1 || k > 50)) {
    throw new InvalidArgumentError('expected comma-separated integers 1..50, e.g. 1,5,10,25');
  }
  return ks;
};

export async function main(
  argv: readonly string[],
  io = { out: process.stdout, err: process.stderr },
): Promise<number> {
  let exitCode = 0;
  const program = new Command('mnemo')
    .description('Local-first long-term memory for AI agents')
    .version(VERSION)
    .option('--data-dir <dir>', 'data directory (env MNEMO_HOME, default ~/.mnemo)')
    .option('--socket <path>', 'Unix socket path (env MNEMO_SOCKET, default <data-dir>/mnemo.sock)')
    .option('--owner <owner>', 'owner for ingest/recall (env MNEMO_OWNER, default "local")')
    .option('--url <url>', 'reach the server over HTTP (token: MNEMO_HTTP_TOKEN or <data-dir>/http-token)')
    .option(
      '--database-url <url>',
      'store in PostgreSQL instead of <data-dir>/mnemo.sqlite3 (env MNEMO_DATABASE_URL)',
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out.write(s), writeErr: (s) => io.err.write(s) });

  const config = (extra: ConfigOverrides = {}) => {
    const g = program.opts<GlobalOptions>();
    return loadConfig({
      ...(g.dataDir ? { dataDir: g.dataDir } : {}),
      ...(g.socket ? { socketPath: g.socket } : {}),
      ...(g.owner ? { owner: g.owner } : {}),
      ...(g.url ? { url: g.url } : {}),
      ...(g.databaseUrl ? { databaseUrl: g.databaseUrl } : {}),
      ...extra,
    });
  };

  program
    .command('serve')
    .description('run the service (socket + HTTP) until SIGINT/SIGTERM')
    .option('--http <host:port>', 'HTTP address (env MNEMO_HTTP, default 127.0.0.1:7420)')
    .option('--no-http', 'do not serve HTTP')
    .addOption(
      new Option('--log-level <level>', 'log level').choices(['debug', 'info', 'warn', 'error', 'silent']),
    )
    .addOption(
      new Option(
        '--observer <observer>',
        'who observes batches (env MNEMO_OBSERVER, default builtin)',
      ).choices(['builtin', 'external']),
    )
    .addOption(
      new Option(
        '--organizer <organizer>',
        'who runs organize jobs (env MNEMO_ORGANIZER, default builtin)',
      ).choices(['builtin', 'external']),
    )
    .action(
      async (opts: {
        http: string | boolean;
        logLevel?: 'info';
        observer?: 'builtin' | 'external';
        organizer?: 'builtin' | 'external';
      }) => {
        const http = opts.http === false ? false : typeof opts.http === 'string' ? opts.http : undefined;
        exitCode = await (
          await import('./commands/serve.js')
        ).serveCommand(
          config({
            ...(http !== undefined ? { http } : {}),
            ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
            ...(opts.observer ? { observer: opts.observer } : {}),
            ...(opts.organizer ? { organizer: opts.organizer } : {}),
          }),
          io.out,
        );
      },
    );

  program
    .command('mcp')
    .description('serve MCP on stdio for one owner (--owner or MNEMO_OWNER); logs go to stderr')
    .addOption(
      new Option('--log-level <level>', 'log level').choices(['debug', 'info', 'warn', 'error', 'silent']),
    )
    .option(
      '--watch-ms <ms>',
      'how often to look for changes to subscribed resources made elsewhere (default 2000)',
      positiveInt(3_600_000),
    )
    .action(async (opts: { logLevel?: 'info'; watchMs?: number }) => {
      const c = config(opts.logLevel ? { logLevel: opts.logLevel } : {});
      const mcp = await import('./commands/mcp.js');
      exitCode = await mcp.mcpCommand(c, process, opts.watchMs ? { watchMs: opts.watchMs } : {});
    });

  program
    .command('ingest')
    .description('ingest JSON lines of events from FILE or - (stdin)')
    .argument('<file>', 'a JSON-lines file, or - for stdin')
    .option('--batch <n>', 'events per call', positiveInt(1000), 500)
    .option('--json', 'print the summary as JSON', false)
    .action(async (file: string, opts: { batch: number; json: boolean }) => {
      const c = config();
      exitCode = await (
        await import('./commands/ingest.js')
      ).ingestCommand(c, file, { owner: c.defaultOwner, ...opts }, { ...io, stdin: process.stdin });
    });

  program
    .command('recall')
    .description('find events by words, ids, time or task')
    .argument('<query>', 'what to look for')
    .option('--limit <n>', 'how many items', positiveInt(50), 10)
    .option('--session <id>', 'only this session')
    .option('--task <id>', 'only this task')
    .option('--from <time>', 'not before (ISO-8601)')
    .option('--to <time>', 'not after (ISO-8601)')
    .option('--json', 'print the raw result', false)
    .action(
      async (query: string, opts: { limit: number; json: boolean; session?: string; task?: string }) => {
        const c = config();
        exitCode = await (
          await import('./commands/recall.js')
        ).recallCommand(c, query, { owner: c.defaultOwner, ...opts }, io.out);
      },
    );

  program
    .command('forget')
    .description('delete memories or objects for real (asks nothing); --with-events also their source events')
    .argument('<ids...>', 'memory (mem_…) or object (obj_…) ids')
    .option('--with-events', 'also the events they cite, and whatever rests only on those', false)
    .option('--json', 'print the raw result', false)
    .action(async (ids: string[], opts: { withEvents: boolean; json: boolean }) => {
      const c = config();
      exitCode = await (
        await import('./commands/forget.js')
      ).forgetCommand(c, ids, { owner: c.defaultOwner, ...opts }, io.out);
    });

  program
    .command('status')
    .description('server state, data directory and counts')
    .option('--json', 'print as JSON', false)
    .action(async (opts: { json: boolean }) => {
      exitCode = await (await import('./commands/status.js')).statusCommand(config(), opts.json, io.out);
    });

  const tokenGroup = program
    .command('token')
    .description('tenant tokens: HTTP bearer tokens that act only for some owners');
  tokenGroup
    .command('create')
    .description('create a token (printed once) for owners: exact names or prefixes such as team:acme/*')
    .requiredOption('--owners <patterns>', 'comma-separated owner patterns, e.g. team:acme/*,user:alice')
    .option('--name <label>', 'a label to recognise the token by')
    .option('--json', 'print as JSON', false)
    .action(async (opts: { owners: string; name?: string; json: boolean }) => {
      exitCode = await (await import('./commands/token.js')).tokenCreateCommand(config(), opts, io.out);
    });
  tokenGroup
    .command('list')
    .description('every token: id, name, owners, created, revoked, last used (never the token)')
    .option('--json', 'print as JSON', false)
    .action(async (opts: { json: boolean }) => {
      exitCode = await (await import('./commands/token.js')).tokenListCommand(config(), opts.json, io.out);
    });
  tokenGroup
    .command('revoke')
    .description('revoke a token by id: refused from the next request on, by every server on the store')
    .argument('<id>', 'the token id (tk_…), as `mnemo token list` shows it')
    .action(async (id: string) => {
      exitCode = await (await import('./commands/token.js')).tokenRevokeCommand(config(), id, io.out);
    });

  const organizeGroup = program
    .command('organize')
    .description('timeline compaction and organize jobs: status, explicit requests, failure notices');
  organizeGroup
    .command('status')
    .description('timelines per owner, the job queue with retries and last failures, core-document conflicts')
    .option('--json', 'print as JSON', false)
    .action(async (opts: { json: boolean }) => {
      exitCode = await (
        await import('./commands/organize.js')
      ).organizeStatusCommand(config(), opts.json, io.out);
    });
  organizeGroup
    .command('request')
    .description('queue an organize (default), compact or deep job for --owner now')
    .addOption(
      new Option('--kind <kind>', 'what to run').choices(['organize', 'compact', 'deep']).default('organize'),
    )
    .action(async (opts: { kind: string }) => {
      exitCode = await (
        await import('./commands/organize.js')
      ).organizeRequestCommand(config(), opts.kind, io.out);
    });
  organizeGroup
    .command('notices')
    .description('failure notices of automatic jobs for --owner; --ack <job> acknowledges one')
    .option('--ack <job>', 'acknowledge the notice of this job')
    .action(async (opts: { ack?: string }) => {
      exitCode = await (
        await import('./commands/organize.js')
      ).organizeNoticesCommand(config(), opts.ack, io.out);
    });
  organizeGroup
    .command('tick')
    .description('check the triggers now (threshold, hourly, nightly) and print what was queued')
    .action(async () => {
      exitCode = await (await import('./commands/organize.js')).organizeTickCommand(config(), io.out);
    });

  // Maintenance and views act on every owner unless --owner is given (not MNEMO_OWNER's default).
  const ownerGiven = () => program.opts<GlobalOptions>().owner;
  program
    .command('reindex')
    .description(
      'rebuild the search index from the database (every owner, or --owner), with progress on stderr',
    )
    .action(async () => {
      exitCode = await (await import('./commands/maintain.js')).reindexCommand(config(), ownerGiven(), io);
    });
  const projectionGroup = program
    .command('projection')
    .description('the Markdown files of objects and core documents (<data-dir>/objects, <data-dir>/core)');
  projectionGroup
    .command('rebuild')
    .description('write every file again from the database, which is authoritative (every owner, or --owner)')
    .option('--json', 'print the summary as JSON', false)
    .action(async (opts: { json: boolean }) => {
      exitCode = await (
        await import('./commands/maintain.js')
      ).projectionRebuildCommand(config(), ownerGiven(), opts.json, io);
    });
  program
    .command('inspect')
    .description('read-only views of the store, newest first (every owner, or --owner)')
    .addArgument(new Argument('<view>', 'what to show').choices(['objects', 'events', 'nodes', 'jobs']))
    .option('--limit <n>', 'how many rows', positiveInt(10_000), 20)
    .option('--json', 'print JSON lines', false)
    .action(async (view: 'objects' | 'events' | 'nodes' | 'jobs', opts: { limit: number; json: boolean }) => {
      exitCode = await (
        await import('./commands/inspect.js')
      ).inspectCommand(config(), view, { owner: ownerGiven(), ...opts }, io.out);
    });

  const evalGroup = program
    .command('eval')
    .description('measure recall on a benchmark dataset in a fresh temporary store (public API only)');
  const evalDatasets = [
    ['locomo', 'LoCoMo evidence recall@k per question category'],
    ['longmemeval', 'LongMemEval session recall_all@k / NDCG@k and turn recall_all@k'],
    ['dulemon', 'DuLeMon (Chinese): recall@k of the persona memory a turn uses'],
    ['zh-agent', 'zh-agent-memory (Chinese/English agent log): recall@k of the gold events by question type'],
  ] as const;
  for (const [dataset, about] of evalDatasets) {
    evalGroup
      .command(dataset)
      .description(about)
      .option('--data <file>', 'dataset file (default: the dev file in ../shared/data beside the repository)')
      .addOption(
        new Option('--k <list>', 'cut-offs, comma-separated')
          .argParser(kList)
          .default([1, 5, 10, 25], '1,5,10,25'),
      )
      .option('--out <dir>', 'output directory (default eval-out/<dataset>-<timestamp>)')
      .option('--subset <n>', 'only the first N conversations or questions', positiveInt(1_000_000))
      .option('--baseline', 'also run the BM25 baseline', false)
      .option(
        '--no-observe',
        'ask without running the heuristic observer over the store first (no objects, aliases or facts)',
      )
      .option(
        '--embed',
        'also measure the vector channel: embed each store with the MNEMO_EMBED_* model, ask with and without it',
        false,
      )
      .addOption(
        new Option(
          '--engine <engine>',
          'store the run in a temporary SQLite file, or in a fresh schema of --database-url / MNEMO_DATABASE_URL (dropped after)',
        )
          .choices(['sqlite', 'postgres'])
          .default('sqlite'),
      )
      .action(async (opts: EvalCommandOptions) => {
        const database = opts.engine === 'postgres' ? config().database : undefined;
        exitCode = await evalCommand(dataset, opts, io, database);
      });
  }

  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (isMemoryError(error)) {
      io.err.write(`mnemo: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
