// Worker threads that prepare large ingest calls in parallel: redaction and tokenization are most of
// the CPU time of an ingest, and off the main thread they leave it free to serve other clients.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { prepareEvents, type PrepareContext, type PrepareOutcome, type Preparer } from './prepare.js';

export interface PrepareWorkerData {
  salt: string;
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
  /** Calls with fewer events are prepared on the calling thread: a round trip costs more than they do. */
  minEvents?: number;
  redactEmails: boolean;
  log?: Logger;
  /** Another worker script (tests: a worker that fails). */
  entry?: URL;
}

/** After this many calls in a row whose workers failed, the pool stops starting workers and stays inline. */
export const MAX_FAILED_CALLS = 3;

/** Below this many events a call is prepared inline (measured: a round trip is ~0.3 ms, an event ~0.1 ms). */
export const MIN_POOLED_EVENTS = 32;

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
  const workers: PoolWorker[] = [];
  let nextId = 0;
  let closed = false;
  let failedCalls = 0;

  const spawn = (): PoolWorker => {
    const workerData = { salt: ctx.salt, redactEmails: options.redactEmails } satisfies PrepareWorkerData;
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

  const inline = (owner: string, raw: readonly unknown[]) => prepareEvents(ctx, owner, raw);

  return {
    async prepare(owner, raw) {
      if (closed || options.size <= 0 || raw.length < minEvents || failedCalls >= MAX_FAILED_CALLS) {
        return inline(owner, raw);
      }
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
    async close() {
      closed = true;
      await Promise.all(workers.splice(0).map((w) => w.worker.terminate()));
    },
  };
}
