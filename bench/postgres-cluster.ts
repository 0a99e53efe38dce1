// A throwaway PostgreSQL cluster for the engine bench (Debian's packages, as `.ci/run` starts one), or the
// server of MNEMO_BENCH_POSTGRES_URL; either way a URL whose role may create schemas and does not bypass
// row-level security, as mnemo connects in production.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface BenchPostgres {
  /** The application role's URL. */
  url: string;
  /** `throwaway` (started here, fsync on) or `given` (MNEMO_BENCH_POSTGRES_URL). */
  origin: 'throwaway' | 'given';
  version: string;
  stop(): void;
}

const ROLE = 'mnemo_bench';
const PASSWORD = 'mnemo-bench';

/** The newest Debian PostgreSQL's bin directory (`apt-get install -y postgresql` provides one). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest)
    throw new Error('no PostgreSQL here: apt-get install -y postgresql, or set MNEMO_BENCH_POSTGRES_URL');
  return join(root, newest, 'bin');
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?'
    );
  } finally {
    await client.end();
  }
}

/** initdb + pg_ctl start in a temporary directory, as the `postgres` user when run as root. */
export async function startBenchPostgres(): Promise<BenchPostgres> {
  const given = process.env.MNEMO_BENCH_POSTGRES_URL;
  if (given) return { url: given, origin: 'given', version: await serverVersion(given), stop: () => {} };
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'ignore' })
      : execFileSync(join(bin, tool), args, { stdio: 'ignore' });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}' NOSUPERUSER NOBYPASSRLS`);
    await admin.query(`CREATE DATABASE ${ROLE} OWNER ${ROLE}`);
    await admin.end();
    const url = `postgres://${ROLE}:${PASSWORD}@127.0.0.1:${port}/${ROLE}`;
    return { url, origin: 'throwaway', version: await serverVersion(url), stop };
  } catch (error) {
    stop();
    throw error;
  }
}
