// Runs the real `mnemo` binary (the built bin/mnemo.js) as a child process, or the CLI's main in-process.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const BIN = fileURLToPath(new URL('../../bin/mnemo.js', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  httpUrl: string | null;
  socketPath: string;
  exited: Promise<number | null>;
}

/** Starts `mnemo serve` and resolves once it prints where it listens. */
export async function spawnServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  bin = BIN,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    env: { ...process.env, MNEMO_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (/http:\s+\S+/.test(out)) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`mnemo serve exited with ${code}: ${err}`));
    });
  });
  const http = /http:\s+(\S+)/.exec(out)?.[1] ?? 'off';
  const socket = /socket:\s+(\S+)/.exec(out)?.[1] ?? '';
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    httpUrl: http === 'off' ? null : http,
    socketPath: socket,
    exited,
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, MNEMO_LOG_LEVEL: 'warn', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(options.input ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI's `main` in this process with captured output (no child process, no build needed). */
export async function runMain(args: string[]): Promise<CliResult> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks = { stdout: '', stderr: '' };
  out.on('data', (c: Buffer) => (chunks.stdout += c.toString()));
  err.on('data', (c: Buffer) => (chunks.stderr += c.toString()));
  const io = { out, err } as unknown as { out: typeof process.stdout; err: typeof process.stderr };
  const code = await main(['node', 'mnemo', ...args], io);
  return { code, ...chunks };
}
