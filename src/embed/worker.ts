// The embedding worker: vectors for documents of the index, in batches, off the ingest path. Its cursor
// lives in the store, so a restart goes on where it stopped; failures back off and are kept.
import type { Sleep, TurnGate } from '../activity.js';
import { createBackgroundLoop } from '../background.js';
import { isMemoryError } from '../errors.js';
import { publicFailure } from '../llm/http.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Logger } from '../log.js';
import { retryDelayMs } from '../observe/commit.js';
import { getMemoriesByIds } from '../observe/observe.js';
import type { Driver, Queryable } from '../storage/driver.js';
import type { EmbeddingProvider } from './provider.js';
import {
  createVectorTable,
  pendingDocs,
  readState,
  recordFailure,
  resetVectors,
  stateMatches,
  writeVectors,
  type PendingDoc,
  type VectorRow,
} from './store.js';

export interface EmbeddingWorkerOptions {
  driver: Driver;
  provider: EmbeddingProvider;
  log: Logger;
  now?: () => number;
  /** Documents per call. */
  batchSize?: number;
  /** Characters of a document sent to the model: its start says what it is about. */
  textLimit?: number;
  /** Pause when nothing is pending. */
  idleMs?: number;
  /** Pause after the n-th failure in a row: base × 2^(n-1), capped. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Waits for the worker's turn before each batch (yielding to client writes); none: always its turn. */
  gate?: TurnGate;
  sleep?: Sleep;
}

export const EMBED_WORKER_DEFAULTS = Object.freeze({
  batchSize: 64,
  textLimit: 2_000,
  idleMs: 1_000,
  backoffBaseMs: 10_000,
  backoffCapMs: 600_000,
});

export type EmbedStep =
  | { outcome: 'idle' }
  /** The stored vectors were of another model or dimension (or none were): dropped, starting over. */
  | { outcome: 'reset'; reason: string }
  | { outcome: 'embedded'; docs: number; vectors: number }
  | { outcome: 'failed'; code: string; message: string; failures: number; retryInMs: number }
  | { outcome: 'stopped' };

export interface EmbeddingWorker {
  start(): void;
  /** Handles at most one batch (what the loop does; tests drive it directly). */
  runOnce(): Promise<EmbedStep>;
  /** Aborts a running call and resolves when the loop has ended; nothing half-written remains. */
  stop(): Promise<void>;
}

/** The text of each document (events and memories as stored, so redacted), cut to `limit` characters. */
async function textsOf(
  db: Queryable,
  docs: readonly PendingDoc[],
  limit: number,
): Promise<Map<number, string>> {
  const byOwner = new Map<string, PendingDoc[]>();
  for (const doc of docs) byOwner.set(doc.owner, [...(byOwner.get(doc.owner) ?? []), doc]);
  const texts = new Map<number, string>();
  for (const [owner, own] of byOwner) {
    const eventRefs = own.filter((d) => d.kind === 'event').map((d) => d.ref);
    const memoryRefs = own.filter((d) => d.kind !== 'event').map((d) => d.ref);
    const events = await getEventsByIds(db, owner, eventRefs);
    const memories = await getMemoriesByIds(db, owner, memoryRefs);
    const eventText = new Map(events.map((e) => [e.event_id, e.text]));
    const memoryText = new Map(memories.map((m) => [m.memory_id, m.text]));
    for (const d of own) {
      const text = (d.kind === 'event' ? eventText : memoryText).get(d.ref)?.trim();
      if (text) texts.set(d.docId, text.slice(0, limit));
    }
  }
  return texts;
}

export function createEmbeddingWorker(options: EmbeddingWorkerOptions): EmbeddingWorker {
  const o = { ...EMBED_WORKER_DEFAULTS, ...options };
  const { driver, provider, log } = o;
  const now = o.now ?? Date.now;
  const loop = createBackgroundLoop({
    name: 'embedding worker',
    log,
    step: async () => {
      const step = await runOnce();
      return step.outcome === 'idle' ? o.idleMs : step.outcome === 'failed' ? step.retryInMs : 0;
    },
    errorPauseMs: o.backoffBaseMs,
    ...(o.gate ? { gate: o.gate } : {}),
    ...(o.sleep ? { sleep: o.sleep } : {}),
  });

  async function runOnce(): Promise<EmbedStep> {
    const state = await readState(driver);
    if (state === undefined || !stateMatches(state, provider.id, provider.dimensions)) {
      const reason = state
        ? `model or dimension changed (${state.model}/${state.requested_dimensions ?? 'native'} → ${provider.id}/${provider.dimensions ?? 'native'})`
        : 'first run';
      await driver.transaction((tx) => resetVectors(tx, provider.id, provider.dimensions, now()));
      log.info({ model: provider.id, reason }, 'embedding: starting the vectors over');
      return { outcome: 'reset', reason };
    }
    const docs = await pendingDocs(driver, state.last_doc_id, o.batchSize);
    const last = docs.at(-1);
    if (!last) return { outcome: 'idle' };
    const texts = await textsOf(driver, docs, o.textLimit);
    const embeddable = docs.filter((d) => texts.has(d.docId));

    const call = loop.call();
    let vectors: Float32Array[] = [];
    try {
      if (embeddable.length > 0) {
        const input = embeddable.map((d) => texts.get(d.docId) ?? '');
        vectors = (await provider.embed(input, { signal: call.signal })).vectors;
      }
    } catch (error) {
      if (call.signal.aborted) return { outcome: 'stopped' };
      const code = isMemoryError(error) ? error.code : 'EMBEDDING_FAILED';
      const reason = error instanceof Error ? error.message : String(error);
      // The stored error is what health shows: a code and a fixed message, never the provider's answer.
      const message = `${code}: ${publicFailure(error).message}`;
      const failures = await driver.transaction((tx) => recordFailure(tx, message, now()));
      const retryInMs = retryDelayMs(failures, { retryBaseMs: o.backoffBaseMs, retryCapMs: o.backoffCapMs });
      log.warn({ code, reason, failures, retryInMs }, 'embedding failed; the batch will be retried');
      return { outcome: 'failed', code, message: reason, failures, retryInMs };
    } finally {
      call.done();
    }

    const dimension = vectors[0]?.length;
    if (dimension !== undefined && state.dimensions !== null && dimension !== state.dimensions) {
      const reason = `the model answered ${dimension} dimensions, the stored vectors have ${state.dimensions}`;
      await driver.transaction((tx) => resetVectors(tx, provider.id, provider.dimensions, now()));
      log.warn({ model: provider.id, reason }, 'embedding: starting the vectors over');
      return { outcome: 'reset', reason };
    }
    // A zero vector has no direction: such a document is left to the other channels.
    const rows: VectorRow[] = embeddable.flatMap((doc, i) => {
      const vector = vectors[i];
      return vector && vector.some((x) => x !== 0) ? [{ doc, vector }] : [];
    });
    // invariant: a batch's vectors and the cursor move together, after the call (nothing but the driver is
    // awaited inside the transaction; tests: "refuses a malformed answer … writes nothing", "stops a worker
    // stuck in an embedding call …").
    const written = await driver.transaction(async (tx) => {
      // Another writer (a reset) may have moved the cursor while the model answered: then drop this batch.
      const current = await readState(tx);
      if (current === undefined || !stateMatches(current, provider.id, provider.dimensions)) return false;
      if (current.last_doc_id !== state.last_doc_id) return false;
      if (current.dimensions === null && dimension !== undefined) await createVectorTable(tx, dimension);
      await writeVectors(tx, rows, last.docId, now());
      return true;
    });
    if (!written) return { outcome: 'reset', reason: 'the vectors were reset during the call' };
    log.debug({ docs: docs.length, vectors: rows.length, last: last.docId }, 'embedded a batch');
    return { outcome: 'embedded', docs: docs.length, vectors: rows.length };
  }

  return { start: loop.start, runOnce, stop: loop.stop };
}
