// The embedding worker: vectors for documents of the index, in batches, off the ingest path. Each owner's
// cursor lives in the store, so a restart goes on where it stopped; a batch's owners are leased, so several
// workers (processes) share the work without embedding a document twice; failures back off and are kept.
import { randomBytes } from 'node:crypto';
import type { Sleep, TurnGate } from '../activity.js';
import { createBackgroundLoop } from '../background.js';
import { isMemoryError } from '../errors.js';
import { publicFailure } from '../llm/http.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Logger } from '../log.js';
import { retryDelayMs } from '../observe/commit.js';
import { objectTexts } from '../knowledge/object-index.js';
import { getMemoriesByIds } from '../observe/observe.js';
import type { Driver, Queryable } from '../storage/driver.js';
import type { EmbeddingProvider } from './provider.js';
import {
  advanceOwner,
  claimOwners,
  createVectorTable,
  lockVectors,
  pendingDocs,
  pendingOwners,
  presentDocIds,
  readState,
  recordFailure,
  recordSuccess,
  releaseLeases,
  resetVectors,
  stateMatches,
  type PendingOwner,
} from './store.js';
import type { PendingDoc, VectorRow } from './vector-index.js';
import { vectorIndexOf } from './vectors.js';

export interface EmbeddingWorkerOptions {
  driver: Driver;
  provider: EmbeddingProvider;
  log: Logger;
  now?: () => number;
  /** Documents per call. */
  batchSize?: number;
  /** How long a batch's owners stay leased to this worker: longer than a model call with its retries. */
  leaseMs?: number;
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
  leaseMs: 600_000,
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

/**
 * The text of each document (events, memories and objects as stored, so redacted), cut to `limit`
 * characters; an object's is its name, aliases and body, as its index document has them.
 */
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
    const memoryRefs = own.filter((d) => d.kind !== 'event' && d.kind !== 'object').map((d) => d.ref);
    const objectRefs = own.filter((d) => d.kind === 'object').map((d) => d.ref);
    const events = await getEventsByIds(db, owner, eventRefs);
    const memories = await getMemoriesByIds(db, owner, memoryRefs);
    const eventText = new Map(events.map((e) => [e.event_id, e.text]));
    const memoryText = new Map(memories.map((m) => [m.memory_id, m.text]));
    const objectText = await objectTexts(db, owner, objectRefs);
    const textOf = (d: PendingDoc) =>
      d.kind === 'event' ? eventText : d.kind === 'object' ? objectText : memoryText;
    for (const d of own) {
      const text = textOf(d).get(d.ref)?.trim();
      if (text) texts.set(d.docId, text.slice(0, limit));
    }
  }
  return texts;
}

/** One leased owner's share of a batch: its documents, and where its cursor goes once they are embedded. */
interface Share {
  owner: PendingOwner;
  docs: PendingDoc[];
  to: number;
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

  const describeChange = (state: { model: string; requested_dimensions: number | null } | undefined) =>
    state
      ? `model or dimension changed (${state.model}/${state.requested_dimensions ?? 'native'} → ${provider.id}/${provider.dimensions ?? 'native'})`
      : 'first run';

  /** Starts the vectors over unless another worker already did for this model. */
  const startOver = (reason: string): Promise<EmbedStep> =>
    driver.transaction(async (tx) => {
      await lockVectors(tx);
      const current = await readState(tx);
      if (current && stateMatches(current, provider.id, provider.dimensions)) return { outcome: 'idle' };
      await resetVectors(tx, provider.id, provider.dimensions, now());
      log.info({ model: provider.id, reason }, 'embedding: starting the vectors over');
      return { outcome: 'reset', reason };
    });

  /** Up to a batch of the leased owners' documents, oldest first within each owner. */
  async function sharesOf(owners: readonly PendingOwner[]): Promise<Share[]> {
    const shares: Share[] = [];
    let room = o.batchSize;
    for (const owner of owners) {
      if (room === 0) break;
      const docs = await pendingDocs(driver, owner.owner, owner.cursor, room);
      room -= docs.length;
      // None (documents removed since): the cursor moves to the owner's last document as it was read.
      shares.push({ owner, docs, to: docs.at(-1)?.docId ?? owner.lastDoc });
    }
    return shares;
  }

  async function runOnce(): Promise<EmbedStep> {
    const state = await readState(driver);
    if (state === undefined || !stateMatches(state, provider.id, provider.dimensions))
      return startOver(describeChange(state));
    const candidates = await pendingOwners(driver, now(), o.batchSize);
    if (candidates.length === 0) return { outcome: 'idle' };
    const token = randomBytes(16).toString('hex');
    const lease = { token, until: now() + o.leaseMs, now: now() };
    const owners = await driver.transaction((tx) => claimOwners(tx, candidates, lease));
    // Every pending owner is another worker's for now.
    if (owners.length === 0) return { outcome: 'idle' };
    let settled = false;
    try {
      const shares = await sharesOf(owners);
      // Owners the batch has no room for go back now, not after the call.
      const unreached = owners.filter((owner) => !shares.some((s) => s.owner === owner)).map((x) => x.owner);
      if (unreached.length > 0) await driver.transaction((tx) => releaseLeases(tx, token, unreached));
      const step = await embedShares(shares, token);
      settled = true;
      return step;
    } finally {
      // A step that threw (the store failed) gives its owners back at once, if it can.
      if (!settled) await driver.transaction((tx) => releaseLeases(tx, token)).catch(() => undefined);
    }
  }

  async function embedShares(shares: readonly Share[], token: string): Promise<EmbedStep> {
    const docs = shares.flatMap((s) => s.docs);
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
      if (call.signal.aborted) {
        await driver.transaction((tx) => releaseLeases(tx, token));
        return { outcome: 'stopped' };
      }
      const code = isMemoryError(error) ? error.code : 'EMBEDDING_FAILED';
      const reason = error instanceof Error ? error.message : String(error);
      // The stored error is what health shows: a code and a fixed message, never the provider's answer.
      const message = `${code}: ${publicFailure(error).message}`;
      const failures = await driver.transaction(async (tx) => {
        await releaseLeases(tx, token);
        return recordFailure(tx, message, now());
      });
      const retryInMs = retryDelayMs(failures, { retryBaseMs: o.backoffBaseMs, retryCapMs: o.backoffCapMs });
      log.warn({ code, reason, failures, retryInMs }, 'embedding failed; the batch will be retried');
      return { outcome: 'failed', code, message: reason, failures, retryInMs };
    } finally {
      call.done();
    }

    // A zero vector has no direction: such a document is left to the other channels.
    const rows: VectorRow[] = embeddable.flatMap((doc, i) => {
      const vector = vectors[i];
      return vector && vector.some((x) => x !== 0) ? [{ doc, vector }] : [];
    });
    const dimension = vectors[0]?.length;
    // invariant: a batch's vectors and its owners' cursors move together, after the call (nothing but the
    // driver is awaited inside the transaction), and only while the batch's lease holds (tests: "refuses a
    // malformed answer … writes nothing", "stops a worker stuck in an embedding call …", "leases an owner's
    // batch to one worker at a time").
    const step = await driver.transaction(async (tx): Promise<EmbedStep> => {
      await lockVectors(tx);
      // A reset (another model, in another process) may have come while the model answered: drop the batch.
      const current = await readState(tx);
      if (current === undefined || !stateMatches(current, provider.id, provider.dimensions))
        return { outcome: 'reset', reason: 'the vectors were reset during the call' };
      if (dimension !== undefined && current.dimensions !== null && dimension !== current.dimensions) {
        const reason = `the model answered ${dimension} dimensions, the stored vectors have ${current.dimensions}`;
        await resetVectors(tx, provider.id, provider.dimensions, now());
        log.warn({ model: provider.id, reason }, 'embedding: starting the vectors over');
        return { outcome: 'reset', reason };
      }
      if (current.dimensions === null && dimension !== undefined) await createVectorTable(tx, dimension);
      const index = vectorIndexOf(tx);
      let written = { docs: 0, vectors: 0 };
      for (const share of shares) {
        // invariant: a document forgotten while the model answered gets no vector (test:
        // src/knowledge/forget-bytes.test.ts "a batch embedded while its documents are forgotten…").
        const present = await presentDocIds(
          tx,
          share.docs.map((d) => d.docId),
        );
        const own = rows.filter((r) => r.doc.owner === share.owner.owner && present.has(r.doc.docId));
        const move = { owner: share.owner.owner, token, from: share.owner.cursor, to: share.to };
        // The lease ran out and another worker took the owner: its batch is that worker's now.
        if (!(await advanceOwner(tx, { ...move, vectors: own.length }))) continue;
        await index.write(tx, own);
        written = { docs: written.docs + share.docs.length, vectors: written.vectors + own.length };
      }
      await releaseLeases(tx, token);
      await recordSuccess(tx, now());
      return { outcome: 'embedded', ...written };
    });
    log.debug({ ...step, owners: shares.length }, 'embedded a batch');
    return step;
  }

  return { start: loop.start, runOnce, stop: loop.stop };
}
