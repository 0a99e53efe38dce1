// Worker threads that prepare large ingest calls in parallel: redaction and tokenization are most of
// the CPU time of an ingest, and off the main thread they leave it free to serve other clients.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { prepareEvents, type PrepareContext, type PrepareOutcome, type Preparer } from './prepare.js';
import { MAX_META_DEPTH, nestsDeeperThan } from './schema.js';

export interface PrepareWorkerData {
  salt: string;
  /** Keys the fingerprints of redaction findings (kept outside the database). */
  fingerprintKey: string;
  redactEmails: boolean;
}

export interface PrepareRequest {
  id: number;
  owner: string;
  raw: readonly unknown[];
  /** Index of raw[0] in the call, for rejection messages. */
  offset: number;
}

export type PrepareResponse = { id: number; outcome: PrepareOutcome } | { id: number; error: string };

export interface PreparePoolOptions {
  /** Worker threads; 0 prepares everything on the calling thread. */
  size: number;
  /** Calls with fewer events, or less text, are prepared on the calling thread (see MIN_POOLED_*). */
  minEvents?: number;
  minChars?: number;
  redactEmails: boolean;
  /** The redactor's fingerprint key, for the workers' own redactors. */
  fingerprintKey: string;
  log?: Logger;
  /** Another worker script (tests: a worker that fails). */
  entry?: URL;
}

/** After this many calls in a row whose workers failed, the pool stops starting workers and stays inline. */
export const MAX_FAILED_CALLS = 3;

/**
 * A call goes to the workers only with at least this many events and this much text (UTF-16 units): a
 * thread hop costs about 0.2 ms and copies the call both ways, so it pays only when the text is long.
 * Measured with two workers on two cores: 32 events of 83 characters took 0.76 ms inline and 1.42 ms
 * pooled, 128 of them 2.27 and 2.02 ms, 32 events of 830 characters 2.64 and 1.78 ms.
 */
export const MIN_POOLED_EVENTS = 16;
export const MIN_POOLED_CHARS = 16_384;

const textLength = (raw: readonly unknown[]): number => {
  let chars = 0;
  for (const item of raw) {
    const text = (item as { text?: unknown } | null)?.text;
    if (typeof text === 'string') chars += text.length;
  }
  return chars;
};

interface Pending {
  resolve(outcome: PrepareOutcome): void;
  reject(error: Error): void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
}

// The build runs the compiled entry. Source runs (tests, tsx) register tsx inside the worker first: in
// Node 20 a worker does not take `--import` hooks from its execArgv.
const fromSource = import.meta.url.endsWith('.ts');
const ENTRY = new URL(fromSource ? './prepare-worker.ts' : './prepare-worker.js', import.meta.url);
const SOURCE_BOOT = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY.href)}); });`;

/**
 * A pool of `size` prepare workers, started on first use. A call is cut into one contiguous slice per
 * worker and the outcomes are joined in input order, so the result is exactly what one thread would
 * give. If a worker fails, the call is prepared inline and the worker is replaced on the next call.
 */
export function createPreparePool(ctx: PrepareContext, options: PreparePoolOptions): Preparer {
  const minEvents = options.minEvents ?? MIN_POOLED_EVENTS;
  const minChars = options.minChars ?? MIN_POOLED_CHARS;
  const workers: PoolWorker[] = [];
  let nextId = 0;
  let closed = false;
  let failedCalls = 0;
  const counts = { pooled: 0, inline: 0 };

  const spawn = (): PoolWorker => {
    const workerData = {
      salt: ctx.salt,
      fingerprintKey: options.fingerprintKey,
      redactEmails: options.redactEmails,
    } satisfies PrepareWorkerData;
    const worker = options.entry
      ? new Worker(options.entry, { workerData })
      : fromSource
        ? new Worker(SOURCE_BOOT, { eval: true, workerData })
        : new Worker(ENTRY, { workerData });
    const entry: PoolWorker = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (response: PrepareResponse) => {
      const waiter = entry.pending.get(response.id);
      if (!waiter) return;
      entry.pending.delete(response.id);
      if (entry.pending.size === 0) worker.unref();
      if ('outcome' in response) waiter.resolve(response.outcome);
      else waiter.reject(new Error(response.error));
    });
    const fail = (error: Error): void => {
      const at = workers.indexOf(entry);
      if (at >= 0) workers.splice(at, 1);
      for (const waiter of entry.pending.values()) waiter.reject(error);
      entry.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`prepare worker exited with code ${code}`)));
    return entry;
  };

  const run = (entry: PoolWorker, owner: string, raw: readonly unknown[], offset: number) =>
    new Promise<PrepareOutcome>((resolve, reject) => {
      const id = nextId++;
      entry.pending.set(id, { resolve, reject });
      // Referenced while it owes an answer: a process waiting on it must not exit.
      entry.worker.ref();
      entry.worker.postMessage({ id, owner, raw, offset } satisfies PrepareRequest);
    });

  const inline = (owner: string, raw: readonly unknown[]) => {
    counts.inline++;
    return prepareEvents(ctx, owner, raw);
  };

  return {
    async prepare(owner, raw) {
      const small = raw.length < minEvents || textLength(raw) < minChars;
      if (closed || options.size <= 0 || small || failedCalls >= MAX_FAILED_CALLS) return inline(owner, raw);
      // invariant: an event too deep to validate is no worker failure: structured clone would overflow the
      // stack, so the call is prepared inline, which rejects that event
      // (test: "regression for issue 8: a too deep meta is its event's rejection in the pool…").
      if (raw.some((item) => nestsDeeperThan(item, MAX_META_DEPTH + 1))) return inline(owner, raw);
      while (workers.length < options.size) workers.push(spawn());
      const slice = Math.ceil(raw.length / workers.length);
      const parts: Promise<PrepareOutcome>[] = [];
      for (let k = 0; k * slice < raw.length; k++) {
        parts.push(run(workers[k] as PoolWorker, owner, raw.slice(k * slice, (k + 1) * slice), k * slice));
      }
      let outcomes: PrepareOutcome[];
      try {
        outcomes = await Promise.all(parts);
        failedCalls = 0;
        counts.pooled++;
      } catch (error) {
        failedCalls++;
        const giveUp = failedCalls >= MAX_FAILED_CALLS;
        options.log?.warn(
          { err: error, failedCalls },
          giveUp
            ? 'prepare workers keep failing; preparing every call inline from now on'
            : 'prepare worker failed; preparing this call inline',
        );
        return inline(owner, raw);
      }
      return {
        prepared: outcomes.flatMap((o) => o.prepared),
        rejected: outcomes.flatMap((o) => o.rejected),
      };
    },
    counts: () => ({ ...counts }),
    async close() {
      closed = true;
      await Promise.all(workers.splice(0).map((w) => w.worker.terminate()));
    },
  };
}
