// A real store on each engine (all migrations) with a fake clock and a temporary data directory for the core
// files, the method table, organize itself, and a worker driven step by step with the extractive summarizer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { silentLogger } from '../../src/log.js';
import {
  createExtractiveSummarizer,
  createOrganize,
  type Organize,
  type OrganizeOptions,
  type Summarizer,
} from '../../src/organize/organize.js';
import { createOrganizeWorker, type OrganizeWorker } from '../../src/organize/worker.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import type { MemoryService } from '../../src/service.js';
import type { SqlValue } from '../../src/storage/driver.js';
import { openTestService, type Engine } from '../helpers/engines.js';
import { sqlFirst } from '../helpers/sql.js';

/** 2026-10-01 10:00 in Asia/Shanghai. */
export const T0 = Date.parse('2026-10-01T10:00:00+08:00');

export interface OrganizeFixture {
  service: MemoryService;
  client: LocalClient;
  organize: Organize;
  dataDir: string;
  clock: { now(): number; advance(ms: number): void; set(ms: number): void };
  ingest(owner: string, events: unknown[]): Promise<void>;
  /** A worker over `organize` (the extractive summarizer unless given another). */
  worker(summarizer?: Summarizer): OrganizeWorker;
  /** Steps the worker until no job is claimable; answers how many steps committed. */
  drain(worker?: OrganizeWorker): Promise<number>;
  count(sql: string, params?: SqlValue[]): Promise<number>;
  close(): Promise<void>;
}

export async function openOrganizeFixture(
  engine: Engine,
  options: { organize?: Partial<OrganizeOptions>; config?: Partial<Config> } = {},
): Promise<OrganizeFixture> {
  let t = T0;
  const clock = { now: () => t, advance: (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) };
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-organize-'));
  const handle = await openTestService(engine, {
    config: { dataDir, timezone: 'Asia/Shanghai', ...options.config },
    now: clock.now,
  });
  const service = handle.service;
  const client = createLocalClient(createMethodTable(service), { checkResults: true });
  const organize = createOrganize({
    driver: service.driver,
    redactor: service.redactor,
    now: clock.now,
    dataDir,
    config: { timezone: 'Asia/Shanghai', ...options.config },
    ...(options.organize ? { options: options.organize } : {}),
  });
  const worker = (summarizer = createExtractiveSummarizer(organize.options.nodeTokens)) =>
    createOrganizeWorker({ organize, summarizer, log: silentLogger(), now: clock.now, tickEveryMs: 60_000 });
  return {
    service,
    client,
    organize,
    dataDir,
    clock,
    async ingest(owner, events) {
      const result = await client.call<{ rejected: unknown[] }>('memory.events.ingest', { owner, events });
      if (result.rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(result.rejected)}`);
    },
    worker,
    async drain(w = worker()) {
      let committed = 0;
      for (let n = 0; n < 10_000; n++) {
        const outcome = await w.step();
        if (outcome === 'idle') return committed;
        if (outcome === 'committed') committed++;
      }
      throw new Error('the worker never went idle');
    },
    async count(sql, params = []) {
      return Number((await sqlFirst<{ n: number }>(service.driver, sql, params))?.n ?? 0);
    },
    async close() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Events of one owner: alternating user and agent turns, Chinese and English, one minute apart. */
export function conversation(
  count: number,
  options: { from?: number; prefix?: string; session?: string } = {},
) {
  const from = options.from ?? T0 - count * 60_000;
  const prefix = options.prefix ?? 'e';
  return Array.from({ length: count }, (_, i) => {
    const zh = i % 3 !== 2;
    const user = i % 2 === 0;
    return {
      event_id: `${prefix}${String(i).padStart(5, '0')}`,
      session_id: options.session ?? `s${Math.floor(i / 40)}`,
      kind: user ? 'user_message' : 'agent_reply',
      role: user ? 'user' : 'agent',
      at: from + i * 60_000,
      text: zh
        ? `第${i}条：帮我把九月份的发票整理好，单号 RB-2026-${String(i).padStart(4, '0')}，周五前发给财务。然后提醒我下午三点开会。`
        : `Turn ${i}: I filed invoice_2026-09-${i}.pdf and booked the 15:00 meeting room; the flight to Hangzhou leaves Friday.`,
    };
  });
}
