// The vector tests' store, on each engine's vector index: SQLite (a real file, sqlite-vec) and PostgreSQL
// code on PGlite with pgvector (a clone of a migrated template per test), against a scripted embedding
// server over real HTTP. Exports are live: `service`, `client` and `embeddings` are the current test's.
import type { PGlite, PGliteInterface } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  createEmbeddingWorker,
  vectorIndexOf,
  type EmbedConfig,
  type EmbeddingStatus,
  type EmbeddingWorker,
  type EmbeddingWorkerOptions,
  type EmbedStep,
} from '../../src/embed/embed.js';
import type { EventInput } from '../../src/index.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import type { RecallResult } from '../../src/recall/schema.js';
import { openMemory, type MemoryService } from '../../src/service.js';
import { silentLogger } from '../../src/log.js';
import { createObservationWorker } from '../../src/worker.js';
import { createPgliteTemplate, pgliteDriver } from '../helpers/pglite.js';
import { startScriptedEmbeddings, type ScriptedEmbeddings } from '../helpers/scripted-embeddings.js';
import { createTempDirs } from '../helpers/temp.js';

export const VECTOR_ENGINES = ['sqlite', 'pglite'] as const;
export type VectorEngine = (typeof VECTOR_ENGINES)[number];

export const T0 = Date.parse('2026-09-01T09:00:00Z');
export const minutes = (n: number) => T0 + n * 60_000;

export const ALICE = [
  { event_id: 'a1', session_id: 's1', kind: 'user_message', role: 'user', at: minutes(0), text: 'I parked the car in the garage near the office.' },
  { event_id: 'a2', session_id: 's2', kind: 'user_message', role: 'user', at: minutes(60), text: 'My puppy needs a walk every morning.' },
  { event_id: 'a3', session_id: 's2', kind: 'agent_reply', role: 'agent', at: minutes(61), text: 'Booked your flight to Shanghai for Friday.' },
  { event_id: 'a4', session_id: 's3', task_id: 't9', kind: 'user_message', role: 'user', at: minutes(120), text: '汽车保养预约在周六上午' },
  { event_id: 'a5', session_id: 's4', kind: 'user_message', role: 'user', at: minutes(180), text: 'I prefer a latte with oat milk.' },
  { event_id: 'a6', session_id: 's4', kind: 'task_result', role: 'system', at: minutes(181), text: 'Order placed.' },
] as EventInput[]; // prettier-ignore

export const BOB = [
  { event_id: 'b1', kind: 'user_message', role: 'user', at: minutes(5), text: 'My automobile broke down on the highway.' },
] as EventInput[]; // prettier-ignore

export let embeddings: ScriptedEmbeddings;
export let service: MemoryService | undefined;
export let client: LocalClient;

const dirs = createTempDirs();
let engine: VectorEngine = 'sqlite';
let template: PGlite | undefined;
let db: PGliteInterface | undefined;
let dataDir: string;

/** Registers the hooks that give each test of the enclosing suite a fresh store on `on`. */
export function useVectorEngine(on: VectorEngine): void {
  beforeAll(async () => {
    engine = on;
    if (on === 'pglite') template = await createPgliteTemplate();
  }, 120_000);
  afterAll(async () => {
    await template?.close();
    template = undefined;
  });
  beforeEach(async () => {
    embeddings = await startScriptedEmbeddings();
    dataDir = dirs.make();
    db = template ? await template.clone() : undefined;
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await embeddings.close();
    await db?.close();
    db = undefined;
    dirs.cleanup();
  });
}

/** (Re)opens the test's store: the same data each time, with the channel on (or `false`: off). */
export async function open(embed: Partial<EmbedConfig> | false = {}): Promise<MemoryService> {
  await service?.close();
  const config = {
    dataDir,
    redactEmails: true,
    ...(embed === false
      ? {}
      : { embed: { baseUrl: embeddings.url, model: 'concepts', timeoutMs: 2_000, weight: 1, ...embed } }),
  };
  service = await openMemory({ config, ...(db ? { driver: pgliteDriver(db) } : {}) });
  client = createLocalClient(createMethodTable(service), { checkResults: true });
  return service;
}

export const currentEngine = (): VectorEngine => engine;

export async function ingest(owner: string, events: EventInput[]): Promise<void> {
  const out = await client.call<{ rejected: unknown[] }>('memory.events.ingest', { owner, events });
  expect(out.rejected).toEqual([]);
}

/** Publishes the heuristic observer's memories (the terminal event a6 closes the batch). */
export async function observe(svc: MemoryService): Promise<void> {
  const worker = createObservationWorker(svc, undefined);
  while ((await worker.step()) !== 'idle');
}

export const workerOf = (
  svc: MemoryService,
  options: Partial<Omit<EmbeddingWorkerOptions, 'driver' | 'log'>> = {},
): EmbeddingWorker => {
  const provider = options.provider ?? svc.embedding?.provider;
  if (!provider) throw new Error('no embedding configured');
  return createEmbeddingWorker({ ...options, driver: svc.driver, provider, log: silentLogger() });
};

/** Runs the worker until nothing is pending; returns the steps. */
export async function drain(worker: EmbeddingWorker): Promise<EmbedStep[]> {
  const steps: EmbedStep[] = [];
  for (let i = 0; i < 50; i++) {
    const step = await worker.runOnce();
    steps.push(step);
    if (step.outcome === 'idle') return steps;
    if (step.outcome === 'failed') throw new Error(`embedding failed: ${step.message}`);
  }
  throw new Error('the worker did not settle');
}

export const recall = (owner: string, query: string, extra: Record<string, unknown> = {}) =>
  client.call<RecallResult>('memory.recall', { owner, query, wait_ms: 60_000, ...extra });
export const ids = (r: RecallResult) => r.items.map((i) => i.id);
export const health = () => client.call<{ embedding?: EmbeddingStatus }>('health');

/** Rows of the engine's vector table; undefined: there is none. */
export const storedVectors = async (): Promise<number | undefined> =>
  service ? vectorIndexOf(service.driver).count(service.driver) : undefined;

export async function seeded(embed: Partial<EmbedConfig> = {}): Promise<MemoryService> {
  const svc = await open(embed);
  await ingest('alice', ALICE);
  await ingest('bob', BOB);
  await observe(svc);
  await drain(workerOf(svc));
  return svc;
}
