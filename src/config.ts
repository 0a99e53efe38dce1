// One schema for every setting; the only reader of the environment.
import { availableParallelism, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { MemoryError } from './errors.js';
import { INJECT_DEFAULTS, InjectConfigSchema } from './inject/config.js';

const HostPortSchema = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/, 'expected HOST:PORT, e.g. 127.0.0.1:7420')
  .transform((value) => {
    const at = value.lastIndexOf(':');
    const host = value.slice(0, at).replace(/^\[|\]$/g, '');
    return { host, port: Number(value.slice(at + 1)) };
  })
  .refine((hp) => hp.port >= 0 && hp.port <= 65535, 'port out of range');

export const ConfigSchema = z.object({
  dataDir: z.string().min(1),
  socketPath: z.string().min(1),
  http: HostPortSchema.nullable(),
  /** The bearer token; without it `mnemo serve` uses `<data-dir>/http-token`, created on first start. */
  httpToken: z.string().min(16, 'MNEMO_HTTP_TOKEN must be at least 16 characters').optional(),
  /** `off` serves HTTP without a token: allowed on a loopback address only. */
  httpAuth: z.enum(['token', 'off'], 'MNEMO_HTTP_AUTH must be token or off'),
  /** Host names HTTP answers to besides its bound address and localhost (`name` or `name:port`). */
  httpAllowedHosts: z.array(
    z
      .string()
      .regex(
        /^([a-z0-9._-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/,
        'MNEMO_HTTP_ALLOWED_HOSTS lists host[:port] names',
      ),
  ),
  httpLimits: z.object({
    /** A larger answer is replaced by RESPONSE_TOO_LARGE. */
    maxResponseBytes: z.number().int().positive(),
    headersTimeoutMs: z.number().int().positive(),
    requestTimeoutMs: z.number().int().positive(),
    keepAliveTimeoutMs: z.number().int().positive(),
  }),
  /** A server the CLI reaches over HTTP instead of the socket (--url). */
  serverUrl: z.url({ protocol: /^https?$/, error: '--url must be an http(s) URL' }).optional(),
  /** PostgreSQL instead of the embedded SQLite file (MNEMO_DATABASE_URL / --database-url). */
  database: z
    .object({
      url: z.string().regex(/^postgres(ql)?:\/\//, 'MNEMO_DATABASE_URL must be a postgres:// URL'),
      poolSize: z
        .number('MNEMO_DATABASE_POOL_SIZE must be a whole number')
        .int('MNEMO_DATABASE_POOL_SIZE must be a whole number')
        .min(1, 'MNEMO_DATABASE_POOL_SIZE is at least 1')
        .max(200, 'MNEMO_DATABASE_POOL_SIZE is at most 200'),
      statementTimeoutMs: z
        .number('MNEMO_DATABASE_STATEMENT_TIMEOUT_MS must be a number of milliseconds')
        .int()
        .min(100, 'MNEMO_DATABASE_STATEMENT_TIMEOUT_MS is at least 100')
        .max(3_600_000, 'MNEMO_DATABASE_STATEMENT_TIMEOUT_MS is at most 3600000'),
      ssl: z.enum(['disable', 'require', 'verify-full'], {
        error: 'MNEMO_DATABASE_SSL is disable, require or verify-full',
      }),
    })
    .optional(),
  redactEmails: z.boolean(),
  defaultOwner: z.string().min(1).max(200),
  logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
  timezone: z.string().min(1),
  observer: z.enum(['builtin', 'external']),
  /** Who runs organize jobs (compaction, organize runs, deep reviews): mnemo's own worker, or external ones. */
  organizer: z.enum(['builtin', 'external'], 'MNEMO_ORGANIZER must be builtin or external'),
  /** How context budgets count tokens: the portable estimate, or exactly (o200k_base, gpt-tokenizer). */
  tokenizer: z.enum(['estimate', 'exact'], 'MNEMO_TOKENIZER must be estimate or exact'),
  organize: z.object({
    /** Unorganised tokens (portable estimate) of an owner above which compaction is queued. */
    thresholdTokens: z
      .number('MNEMO_ORGANIZE_THRESHOLD_TOKENS must be a whole number')
      .int('MNEMO_ORGANIZE_THRESHOLD_TOKENS must be a whole number')
      .min(100, 'MNEMO_ORGANIZE_THRESHOLD_TOKENS is at least 100')
      .max(10_000_000, 'MNEMO_ORGANIZE_THRESHOLD_TOKENS is at most 10000000'),
    /** How long mnemo's own organize worker holds a job's lease. */
    leaseMs: z
      .number('MNEMO_ORGANIZE_LEASE_MS must be a number of milliseconds')
      .int()
      .min(1_000, 'MNEMO_ORGANIZE_LEASE_MS is at least 1000')
      .max(1_800_000, 'MNEMO_ORGANIZE_LEASE_MS is at most 1800000'),
    /** The nightly deep review's window, minutes after local midnight, starting at or after 03:30. */
    quietWindow: z
      .object(
        { start: z.number().int(), end: z.number().int() },
        'MNEMO_ORGANIZE_QUIET_WINDOW is HH:MM-HH:MM',
      )
      .refine(
        (w) => w.start >= 210 && w.end > w.start && w.end <= 1440,
        'MNEMO_ORGANIZE_QUIET_WINDOW starts at or after 03:30 and ends after it starts, by 24:00',
      ),
  }),
  /** Worker threads that prepare (redact, tokenize) large ingest calls; 0: on the main thread. */
  ingestWorkers: z.number().int().min(0).max(16),
  model: z
    .object({
      baseUrl: z.url(),
      model: z.string().min(1),
      apiKey: z.string().optional(),
    })
    .optional(),
  /** The optional vector channel for recall; absent (off) unless a base URL and a model are set. */
  embed: z
    .object({
      baseUrl: z.url({
        error: (issue) =>
          issue.input === undefined
            ? 'MNEMO_EMBED_BASE_URL is required with MNEMO_EMBED_MODEL'
            : 'MNEMO_EMBED_BASE_URL must be a URL, e.g. http://127.0.0.1:11434/v1',
      }),
      model: z.string('MNEMO_EMBED_MODEL is required with MNEMO_EMBED_BASE_URL').min(1),
      apiKey: z.string().optional(),
      dimensions: z
        .number('MNEMO_EMBED_DIMENSIONS must be a whole number')
        .int('MNEMO_EMBED_DIMENSIONS must be a whole number')
        .min(1, 'MNEMO_EMBED_DIMENSIONS must be at least 1')
        .max(8192, 'MNEMO_EMBED_DIMENSIONS is at most 8192')
        .optional(),
      /** How long recall waits for the query's embedding. */
      timeoutMs: z
        .number('MNEMO_EMBED_TIMEOUT_MS must be a number of milliseconds')
        .int('MNEMO_EMBED_TIMEOUT_MS must be a whole number')
        .min(1, 'MNEMO_EMBED_TIMEOUT_MS must be at least 1')
        .max(60_000, 'MNEMO_EMBED_TIMEOUT_MS is at most 60000'),
      /** Weight of the vector channel in the rank fusion (bm25 weighs 1). */
      weight: z
        .number('MNEMO_EMBED_WEIGHT must be a number')
        .min(0, 'MNEMO_EMBED_WEIGHT must be between 0 and 10')
        .max(10, 'MNEMO_EMBED_WEIGHT must be between 0 and 10'),
    })
    .optional(),
  /** The inject stage: wait budget follow-up, working memory, the gate's weights (inject/config.ts). */
  inject: InjectConfigSchema.optional(),
  /**
   * The write guard (opt-in): after this many human turns of a session that used a tool and wrote nothing
   * to memory, the session's snapshot carries a backlog notice. Values under 1 count as 1.
   */
  writeGuardThreshold: z
    .number('MNEMO_WRITE_GUARD_THRESHOLD must be a whole number')
    .int('MNEMO_WRITE_GUARD_THRESHOLD must be a whole number')
    .max(1_000, 'MNEMO_WRITE_GUARD_THRESHOLD is at most 1000')
    .transform((n) => Math.max(1, n))
    .optional(),
  limits: z.object({
    maxLineBytes: z.number().int().positive(),
    idleMs: z.number().int().positive(),
    maxConnections: z.number().int().positive(),
    recallBudgetMs: z.number().int().positive(),
  }),
});

export type Config = z.infer<typeof ConfigSchema>;

export interface ConfigOverrides {
  dataDir?: string;
  socketPath?: string;
  http?: string | false;
  observer?: 'builtin' | 'external';
  organizer?: 'builtin' | 'external';
  logLevel?: Config['logLevel'];
  owner?: string;
  url?: string;
  databaseUrl?: string;
}

export const DATABASE_DEFAULTS = Object.freeze({ poolSize: 10, statementTimeoutMs: 30_000, ssl: 'disable' });

export const DEFAULT_HTTP = '127.0.0.1:7420';

/** A number from the environment; text that is no number stays text, so the schema names the field. */
const numeric = (value: string | undefined, fallback?: number): number | string | undefined => {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isNaN(n) ? value : n;
};

export const HTTP_LIMITS = Object.freeze({
  maxResponseBytes: 16 * 1024 * 1024,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

export const ORGANIZE_CONFIG_DEFAULTS = Object.freeze({
  thresholdTokens: 8_000,
  leaseMs: 300_000,
  quietWindow: '03:30-06:00',
});

/** `HH:MM-HH:MM` as minutes after midnight; anything else stays text, so the schema names the field. */
const minutesWindow = (value: string): { start: number; end: number } | string => {
  const m = /^(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m) return value;
  const [h1, m1, h2, m2] = m.slice(1).map(Number) as [number, number, number, number];
  return m1 > 59 || m2 > 59 ? value : { start: h1 * 60 + m1, end: h2 * 60 + m2 };
};

export const EMBED_DEFAULTS = Object.freeze({ timeoutMs: 1_000, weight: 1 });

const flag = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined ? fallback : !/^(0|false|no|off)$/i.test(value.trim());

/** Reads overrides, then the environment, then defaults; throws CONFIG_INVALID naming each bad field. */
export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(overrides.dataDir ?? env.MNEMO_HOME ?? join(homedir(), '.mnemo'));
  const httpSetting = overrides.http ?? env.MNEMO_HTTP ?? DEFAULT_HTTP;
  const raw = {
    dataDir,
    socketPath: resolve(overrides.socketPath ?? env.MNEMO_SOCKET ?? join(dataDir, 'mnemo.sock')),
    http: httpSetting === false || /^(off|none|false)$/i.test(httpSetting) ? null : httpSetting,
    httpToken: env.MNEMO_HTTP_TOKEN || undefined,
    httpAuth: env.MNEMO_HTTP_AUTH?.trim().toLowerCase() || 'token',
    httpAllowedHosts: (env.MNEMO_HTTP_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
    httpLimits: HTTP_LIMITS,
    serverUrl: overrides.url,
    database:
      (overrides.databaseUrl ?? env.MNEMO_DATABASE_URL)
        ? {
            url: overrides.databaseUrl ?? env.MNEMO_DATABASE_URL,
            poolSize: numeric(env.MNEMO_DATABASE_POOL_SIZE, DATABASE_DEFAULTS.poolSize),
            statementTimeoutMs: numeric(
              env.MNEMO_DATABASE_STATEMENT_TIMEOUT_MS,
              DATABASE_DEFAULTS.statementTimeoutMs,
            ),
            ssl: env.MNEMO_DATABASE_SSL || DATABASE_DEFAULTS.ssl,
          }
        : undefined,
    redactEmails: flag(env.MNEMO_REDACT_EMAILS, true),
    defaultOwner: overrides.owner ?? env.MNEMO_OWNER ?? 'local',
    logLevel: overrides.logLevel ?? env.MNEMO_LOG_LEVEL ?? 'info',
    timezone: env.MNEMO_TIMEZONE ?? 'Asia/Shanghai',
    observer: overrides.observer ?? env.MNEMO_OBSERVER ?? 'builtin',
    organizer: overrides.organizer ?? env.MNEMO_ORGANIZER ?? 'builtin',
    tokenizer: env.MNEMO_TOKENIZER?.trim().toLowerCase() || 'estimate',
    organize: {
      thresholdTokens: numeric(env.MNEMO_ORGANIZE_THRESHOLD_TOKENS, ORGANIZE_CONFIG_DEFAULTS.thresholdTokens),
      leaseMs: numeric(env.MNEMO_ORGANIZE_LEASE_MS, ORGANIZE_CONFIG_DEFAULTS.leaseMs),
      quietWindow: minutesWindow(env.MNEMO_ORGANIZE_QUIET_WINDOW || ORGANIZE_CONFIG_DEFAULTS.quietWindow),
    },
    ingestWorkers:
      env.MNEMO_INGEST_WORKERS === undefined || env.MNEMO_INGEST_WORKERS === ''
        ? Math.min(4, availableParallelism())
        : Number(env.MNEMO_INGEST_WORKERS),
    model:
      env.MNEMO_MODEL_BASE_URL || env.MNEMO_MODEL
        ? {
            baseUrl: env.MNEMO_MODEL_BASE_URL,
            model: env.MNEMO_MODEL,
            apiKey: env.MNEMO_MODEL_API_KEY || undefined,
          }
        : undefined,
    embed:
      env.MNEMO_EMBED_BASE_URL || env.MNEMO_EMBED_MODEL
        ? {
            baseUrl: env.MNEMO_EMBED_BASE_URL || undefined,
            model: env.MNEMO_EMBED_MODEL || undefined,
            apiKey: env.MNEMO_EMBED_API_KEY || undefined,
            dimensions: numeric(env.MNEMO_EMBED_DIMENSIONS),
            timeoutMs: numeric(env.MNEMO_EMBED_TIMEOUT_MS, EMBED_DEFAULTS.timeoutMs),
            weight: numeric(env.MNEMO_EMBED_WEIGHT, EMBED_DEFAULTS.weight),
          }
        : undefined,
    inject: INJECT_DEFAULTS,
    writeGuardThreshold: numeric(env.MNEMO_WRITE_GUARD_THRESHOLD),
    limits: { maxLineBytes: 1024 * 1024, idleMs: 5000, maxConnections: 64, recallBudgetMs: 75 },
  };
  const parsed = ConfigSchema.safeParse(raw);
  const issues = parsed.success
    ? checkHttpAuth(parsed.data)
    : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  if (!parsed.success || issues.length > 0) {
    throw new MemoryError(
      'CONFIG_INVALID',
      `invalid configuration: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      { issues },
    );
  }
  return Object.freeze(parsed.data);
}

/** invariant: HTTP without a token is served on loopback only (test: config.test.ts "regression for issue 8…"). */
function checkHttpAuth(config: Config): Array<{ path: string; message: string }> {
  if (config.httpAuth === 'token' || config.http === null || isLoopback(config.http.host)) return [];
  const message = `MNEMO_HTTP_AUTH=off is allowed only on a loopback HTTP address, not ${config.http.host}`;
  return [{ path: 'httpAuth', message }];
}

export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
