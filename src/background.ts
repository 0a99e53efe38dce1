// The loop of a background worker (observation, embedding): wait for its turn, run one step, pause as
// the step asks; stop() aborts the call in flight and resolves once the loop has ended.
import { sleep, type Sleep, type TurnGate } from './activity.js';
import { isMemoryError } from './errors.js';
import type { Logger } from './log.js';

export interface BackgroundLoopOptions {
  /** Names the worker in logs and in the reason a stopped call is aborted with. */
  name: string;
  log: Logger;
  /** One step; resolves to how long to pause before the next (0: go on at once). */
  step(): Promise<number>;
  /** Pause after a step that threw; it doubles with each failure in a row, up to maxErrorPauseMs. */
  errorPauseMs: number;
  /** Longest pause after failures in a row (default 60 s). */
  maxErrorPauseMs?: number;
  /** Waits for the worker's turn before each step (yielding to client writes); none: always its turn. */
  gate?: TurnGate;
  sleep?: Sleep;
}

export interface BackgroundLoop {
  start(): void;
  stop(): Promise<void>;
  /** A signal for one step's call, aborted by stop(); `done` when the call has ended. */
  call(): { signal: AbortSignal; done(): void };
}

export function createBackgroundLoop(options: BackgroundLoopOptions): BackgroundLoop {
  const { name, log } = options;
  const pause = options.sleep ?? sleep;
  const stopped = new AbortController();
  let running: Promise<void> | undefined;
  let inFlight: AbortController | undefined;

  const maxPause = options.maxErrorPauseMs ?? 60_000;
  let failures = 0;
  let lastPause = 0;

  // invariant: failures in a row back off (doubling to a cap) and are logged once per doubling, never in a
  // tight loop; the first success after them resets the pause (test: src/background.test.ts "backs off").
  async function run(): Promise<void> {
    while (!stopped.signal.aborted) {
      await options.gate?.waitTurn(stopped.signal);
      if (stopped.signal.aborted) break;
      let wait: number;
      try {
        wait = await options.step();
        if (failures > 0) log.info({ failures }, `${name} recovered`);
        failures = 0;
        lastPause = 0;
      } catch (error) {
        failures++;
        wait = Math.min(maxPause, options.errorPauseMs * 2 ** (failures - 1));
        const unavailable = isMemoryError(error) && error.code === 'STORAGE_UNAVAILABLE';
        const longer = wait !== lastPause;
        lastPause = wait;
        if (longer || failures % 10 === 0) {
          const detail = { err: error, failures, retryInMs: wait };
          if (unavailable) log.warn(detail, `${name}: the store is unavailable; backing off`);
          else log.error(detail, `${name} step failed`);
        }
      }
      if (wait > 0 && !stopped.signal.aborted) await pause(wait, stopped.signal);
    }
  }

  return {
    start() {
      running ??= run();
    },
    async stop() {
      inFlight?.abort(new Error(`${name} stopping`));
      stopped.abort();
      await running;
    },
    call() {
      const controller = (inFlight = new AbortController());
      return {
        signal: controller.signal,
        done: () => {
          if (inFlight === controller) inFlight = undefined;
        },
      };
    },
  };
}
