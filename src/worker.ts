// Background loop: claim a batch → run the observer → commit or fail; stops cleanly before the store closes.
import type { Sleep, TurnGate } from './activity.js';
import { createBackgroundLoop } from './background.js';
import type { Config } from './config.js';
import { isMemoryError } from './errors.js';
import { createOpenAiProvider } from './llm/llm.js';
import type { Logger } from './log.js';
import { createHeuristicObserver } from './observe/heuristic.js';
import { createModelObserver } from './observe/model-observer.js';
import { createObservation, type Observation, type Usage } from './observe/observe.js';
import type { Observer } from './observe/observer.js';
import type { Driver } from './storage/driver.js';
import type { Redactor } from './text/redact.js';

export interface WorkerOptions {
  observation: Observation;
  observer: Observer;
  log: Logger;
  /** Pause when no batch is ready (the selection check interval). */
  idleMs?: number;
  leaseMs?: number;
  /** Waits for the worker's turn before each batch (yielding to client writes); none: always its turn. */
  gate?: TurnGate;
  sleep?: Sleep;
}

export type StepOutcome = 'idle' | 'published' | 'refused' | 'failed' | 'lost' | 'released';

export interface Worker {
  start(): void;
  /** Claims and handles at most one batch (what the loop does; tests drive it directly). */
  step(): Promise<StepOutcome>;
  /** Aborts a running model call, gives its lease back, and resolves when the loop has ended. */
  stop(): Promise<void>;
}

const usageOf = (error: unknown): Usage | undefined =>
  isMemoryError(error) ? (error.data?.usage as Usage | undefined) : undefined;

export function createWorker(options: WorkerOptions): Worker {
  const { observation, observer, log } = options;
  const idleMs = options.idleMs ?? 1_000;
  const loop = createBackgroundLoop({
    name: 'observation worker',
    log,
    step: async () => ((await step()) === 'idle' ? idleMs : 0),
    errorPauseMs: idleMs,
    ...(options.gate ? { gate: options.gate } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });

  async function step(): Promise<StepOutcome> {
    const batch = await observation.claim(options.leaseMs === undefined ? {} : { lease_ms: options.leaseMs });
    if (!batch) return 'idle';
    const ids = { batch_id: batch.batch_id, token: batch.token };
    const call = loop.call();
    let output;
    try {
      output = await observer.propose(batch, call.signal);
    } catch (error) {
      if (call.signal.aborted) {
        await observation.release(batch.batch_id, batch.token, usageOf(error));
        return 'released';
      }
      const code = isMemoryError(error) ? error.code : 'OBSERVER_ERROR';
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ batch: batch.batch_id, code, reason }, 'observer failed; the batch will be retried');
      await observation.fail({ ...ids, code, reason, usage: usageOf(error) });
      return 'failed';
    } finally {
      call.done();
    }
    try {
      const receipt = await observation.commit({ ...ids, proposal: output.proposal, usage: output.usage });
      log.debug({ batch: batch.batch_id, memories: receipt.memory_ids.length }, 'batch published');
      return 'published';
    } catch (error) {
      if (isMemoryError(error) && error.code === 'PROPOSAL_INVALID') {
        log.warn(
          { batch: batch.batch_id, issues: error.data?.issues },
          'proposal refused; the batch will be retried',
        );
        return 'refused';
      }
      if (isMemoryError(error) && error.code === 'LEASE_LOST') return 'lost';
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ err: error, batch: batch.batch_id }, 'publish failed');
      await observation.fail({ ...ids, code: 'PUBLISH_FAILED', reason });
      return 'failed';
    }
  }

  return { start: loop.start, step, stop: loop.stop };
}

/** mnemo's own worker: the model observer when a model is configured, the heuristic observer otherwise. */
export function createObservationWorker(
  service: {
    driver: Driver;
    redactor: Redactor;
    now(): number;
    log: Logger;
    config?: { timezone?: string | undefined };
  },
  model: Config['model'],
  options: { gate?: TurnGate } = {},
): Worker {
  const observer = model
    ? createModelObserver(
        createOpenAiProvider({ baseUrl: model.baseUrl, model: model.model, apiKey: model.apiKey }),
      )
    : createHeuristicObserver();
  service.log.info({ observer: observer.name }, 'observation worker started');
  return createWorker({
    observation: createObservation({
      driver: service.driver,
      redactor: service.redactor,
      now: () => service.now(),
      timeZone: service.config?.timezone,
    }),
    observer,
    log: service.log,
    ...options,
  });
}
