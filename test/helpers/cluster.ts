// Several real `mnemo serve` processes on one database, each with its own data directory and socket, that
// a test kills with SIGKILL and starts again.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnServer, type ServerProcess } from './process.js';

export interface Cluster {
  readonly size: number;
  socketOf(index: number): string;
  /** The processes that are serving now (not killed, not starting). */
  up(): number[];
  kill(index: number): Promise<void>;
  /** Starts process `index` again; `clockOffsetMs` runs its wall clock ahead (see clock-offset.mjs). */
  start(index: number, clockOffsetMs?: number): Promise<ServerProcess>;
  /** SIGTERM to one process: resolves with its exit code. */
  stop(index: number): Promise<number | null>;
  killAll(): Promise<void>;
  stderr(): string;
}

const CLOCK_OFFSET = new URL('./clock-offset.mjs', import.meta.url).href;

/** The environment of every child: the shared database, the builtin heuristic observer, nothing else. */
const childEnv = (databaseUrl: string): NodeJS.ProcessEnv => ({
  MNEMO_DATABASE_URL: databaseUrl,
  MNEMO_DATABASE_POOL_SIZE: '4',
  MNEMO_OBSERVER: 'builtin',
  MNEMO_INGEST_WORKERS: '0',
  MNEMO_MODEL: '',
  MNEMO_MODEL_BASE_URL: '',
  MNEMO_EMBED_BASE_URL: '',
  MNEMO_EMBED_MODEL: '',
  MNEMO_HTTP_TOKEN: '',
});

/**
 * Starts `dataDirs.length` processes on `databaseUrl`: the first alone (it migrates and creates the
 * redaction key), then the others with a copy of its key, as the README asks of processes sharing a database.
 */
export async function startCluster(databaseUrl: string, dataDirs: string[]): Promise<Cluster> {
  const running = new Map<number, ServerProcess>();
  const log: string[] = [];
  const socketOf = (i: number) => join(dataDirs[i] ?? '', 'mnemo.sock');

  async function start(i: number, clockOffsetMs = 0): Promise<ServerProcess> {
    const env = childEnv(databaseUrl);
    if (clockOffsetMs !== 0) {
      env.MNEMO_TEST_CLOCK_OFFSET_MS = String(clockOffsetMs);
      env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${CLOCK_OFFSET}`.trim();
    }
    const dir = dataDirs[i] ?? '';
    const proc = await spawnServer(['--data-dir', dir, '--socket', socketOf(i), '--no-http'], env);
    running.set(i, proc);
    return proc;
  }

  async function kill(i: number): Promise<void> {
    const proc = running.get(i);
    if (!proc) return;
    running.delete(i);
    proc.child.kill('SIGKILL');
    await proc.exited;
    log.push(`[${i}] ${proc.stderr()}`);
  }

  await start(0);
  for (let i = 1; i < dataDirs.length; i++) {
    copyFileSync(join(dataDirs[0] ?? '', 'redaction-key'), join(dataDirs[i] ?? '', 'redaction-key'));
  }
  await Promise.all(dataDirs.slice(1).map((_, i) => start(i + 1)));

  return {
    size: dataDirs.length,
    socketOf,
    up: () => [...running.keys()].sort(),
    kill,
    start,
    async stop(i) {
      const proc = running.get(i);
      if (!proc) return null;
      running.delete(i);
      proc.child.kill('SIGTERM');
      const code = await proc.exited;
      log.push(`[${i}] ${proc.stderr()}`);
      return code;
    },
    killAll: async () => {
      await Promise.all([...running.keys()].map(kill));
    },
    stderr: () => log.filter((l) => !/^\[\d+\] $/.test(l)).join('\n'),
  };
}

/** A deterministic generator in [0, 1) (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
