// The real `mnemo serve` (the built bin/mnemo.js) as the bench's child process, and its memory from /proc.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createSocketClient, type MnemoClient } from '../src/index.js';

/** Observation is a background job with its own bench (bench/observe.ts); see the report's text. */
export const SERVE_FLAGS = ['--no-http', '--observer', 'external', '--organizer', 'external'];

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 60_000;
const STDERR_TAIL = 64 * 1024;

export interface BenchServer {
  readonly pid: number;
  readonly socketPath: string;
  /** Resolves once the server printed where it listens. */
  readonly ready: Promise<void>;
  /** Rejects with the server's stderr when it exits before stop() was called; never resolves. */
  readonly failed: Promise<never>;
  /** A socket client whose calls fail as soon as the server dies. */
  connect(): MnemoClient;
  /** SIGTERM, then waits for a clean exit; rejects on any other end. Idempotent. */
  stop(): Promise<void>;
}

/** The bench's environment without MNEMO_* settings that would change what is measured. */
function serverEnv(env: NodeJS.ProcessEnv, databaseUrl?: string): NodeJS.ProcessEnv {
  const kept = Object.entries(env).filter(
    ([key]) => !key.startsWith('MNEMO_') || key === 'MNEMO_INGEST_WORKERS',
  );
  return {
    ...Object.fromEntries(kept),
    MNEMO_LOG_LEVEL: 'warn',
    ...(databaseUrl ? { MNEMO_DATABASE_URL: databaseUrl } : {}),
  };
}

export interface BenchServerOptions {
  /** PostgreSQL instead of `<dir>/mnemo/mnemo.sqlite3` (as MNEMO_DATABASE_URL, the pool at its default). */
  databaseUrl?: string;
}

export function spawnBenchServer(root: string, dir: string, options: BenchServerOptions = {}): BenchServer {
  const socketPath = join(dir, 'mnemo.sock');
  const args = ['serve', '--data-dir', join(dir, 'mnemo'), '--socket', socketPath, ...SERVE_FLAGS];
  const child = spawn(process.execPath, [join(root, 'bin', 'mnemo.js'), ...args], {
    env: serverEnv(process.env, options.databaseUrl),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-STDERR_TAIL)));
  const failure = (what: string): Error =>
    new Error(`mnemo serve ${what}; its stderr:\n${err.trimEnd() || '(empty)'}`);

  let stopping = false;
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not start (${error.message})`));
    child.once('exit', (code, signal) => resolve(signal ? `was killed by ${signal}` : `exited with ${code}`));
  });
  const failed = exited.then((how) => {
    if (!stopping) throw failure(`${how} during the bench`);
    return new Promise<never>(() => {});
  });
  failed.catch(() => {}); // observed by ready, the guarded calls and stop()

  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(failure(`printed no socket line in ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const onData = (): void => {
      if (!/socket:\s+\S+\n/.test(out)) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve();
    };
    child.stdout.on('data', onData);
    failed.catch((error: unknown) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  ready.catch(() => {}); // the caller awaits it

  let stopped: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
      if (!stopping) await failed;
      return;
    }
    stopping = true;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const how = await exited;
    clearTimeout(timer);
    if (child.exitCode !== 0) throw failure(`${how} after SIGTERM`);
  };

  return {
    pid: child.pid ?? -1,
    socketPath,
    ready,
    failed,
    connect() {
      const client = createSocketClient(socketPath, { timeoutMs: 0 });
      return {
        async call<T>(method: string, params?: unknown): Promise<T> {
          try {
            return await Promise.race([client.call<T>(method, params), failed]);
          } catch (error) {
            // A lost connection is mostly the server dying: give its exit a moment to say so, with stderr.
            await Promise.race([failed, delay(1000)]);
            throw error;
          }
        },
        close: () => client.close(),
      };
    },
    stop: () => (stopped ??= stop()),
  };
}

export interface ProcMemory {
  /** VmRSS: resident now. */
  rssBytes: number;
  /** VmHWM: the kernel's peak resident set since the process started. */
  peakBytes: number;
}

const hasProc = existsSync('/proc/self/status');

/** A process's resident memory from /proc/<pid>/status; null without /proc or once it is gone. */
export function readProcMemory(pid: number): ProcMemory | null {
  if (!hasProc) return null;
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (key: string): number | undefined => {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  const rssBytes = kb('VmRSS');
  const peakBytes = kb('VmHWM');
  return rssBytes === undefined || peakBytes === undefined ? null : { rssBytes, peakBytes };
}
