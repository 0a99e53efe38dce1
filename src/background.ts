// The loop of a background worker (observation, embedding): wait for its turn, run one step, pause as
// the step asks; stop() aborts the call in flight and resolves once the loop has ended.
import { sleep, type Sleep, type TurnGate } from './activity.js';
import type { Logger } from './log.js';

export interface BackgroundLoopOptions {
  /** Names the worker in logs and in the reason a stopped call is aborted with. */
  name: string;
  log: Logger;
  /** One step; resolves to how long to pause before the next (0: go on at once). */
  step(): Promise<number>;
  /** Pause after a step that threw. */
  errorPauseMs: number;
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

  async function run(): Promise<void> {
    while (!stopped.signal.aborted) {
      await options.gate?.waitTurn(stopped.signal);
      if (stopped.signal.aborted) break;
      let wait: number;
      try {
        wait = await options.step();
      } catch (error) {
        log.error({ err: error }, `${name} step failed`);
        wait = options.errorPauseMs;
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
