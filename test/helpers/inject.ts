// The inject stage's test kit: a store on either engine with the method table over a runtime whose search
// can be held back (a deliberately slow index: a gate the test opens), a fake clock, and stores that can be
// opened again (a restart) or twice (two processes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { createInjectRuntime, type InjectRuntime, type SearchWrapper } from '../../src/inject/runtime.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import type { MethodTable } from '../../src/protocol/method.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import type { Principal } from '../../src/protocol/principal.js';
import { openMemory, type MemoryService } from '../../src/service.js';
import { freshPostgresUrl, postgresConfig, type Engine } from './engines.js';

export interface Gate {
  /** Resolves once opened. */
  wait: Promise<void>;
  open(): void;
}

export function createGate(): Gate {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/** A search that waits for `gate` before the real one runs: pending for as long as the test wants. */
export const heldBack =
  (gate: Gate): SearchWrapper =>
  async (params, recall) => {
    await gate.wait;
    return recall(params);
  };

export interface Clock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function createClock(start = Date.parse('2026-11-16T02:00:00Z')): Clock {
  let t = start;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

export interface InjectKit {
  service: MemoryService;
  runtime: InjectRuntime;
  table: MethodTable;
  client: LocalClient;
  /** A client acting for `principal` (a tenant's scope). */
  as(principal: Principal): LocalClient;
  /** Stops the runtime (pending searches fail with `shutdown`), then closes the store: a clean stop. */
  close(): Promise<void>;
}

export interface ReopenableStore {
  /** A service on the store (a process): every call opens another on the same database. */
  open(options?: {
    search?: SearchWrapper;
    now?: () => number;
    config?: Partial<Config>;
  }): Promise<InjectKit>;
  /** Closes what is still open (runtimes first) and removes the store. */
  close(): Promise<void>;
}

/** One store on `engine` (a SQLite file in WAL mode, or a fresh PostgreSQL schema) that services share. */
export async function openStore(engine: Engine): Promise<ReopenableStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-inject-'));
  const pg = engine === 'postgres' ? await freshPostgresUrl() : undefined;
  const open: InjectKit[] = [];
  return {
    async open(options = {}) {
      const config = {
        dataDir,
        redactEmails: true,
        ...(pg ? postgresConfig(pg.url) : {}),
        ...options.config,
      } as Config;
      const service = await openMemory({ config, ...(options.now ? { now: options.now } : {}) });
      const runtime = createInjectRuntime(service, options.search ? { search: options.search } : {});
      const table = createMethodTable(service, { inject: runtime });
      let closed: Promise<void> | undefined;
      const kit: InjectKit = {
        service,
        runtime,
        table,
        client: createLocalClient(table, { checkResults: true }),
        as: (principal) => createLocalClient(table, { checkResults: true, principal }),
        close: () => (closed ??= runtime.close().then(() => service.close())),
      };
      open.push(kit);
      return kit;
    },
    async close() {
      for (const kit of open.splice(0)) await kit.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
