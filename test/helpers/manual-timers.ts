// A clock and a sleep that move only when a test says so: background loops are driven step by step.
import type { Sleep } from '../../src/activity.js';

export interface ManualTimers {
  now(): number;
  sleep: Sleep;
  /** Every sleep asked for so far, in order. */
  readonly sleeps: number[];
  /** Resolves with the duration of the next sleep asked for after this call. */
  nextSleep(): Promise<number>;
  /** Moves the clock and wakes the sleepers that are due. */
  advance(ms: number): void;
}

export function createManualTimers(start = 0): ManualTimers {
  let t = start;
  const sleeps: number[] = [];
  const due: Array<{ at: number; wake: () => void }> = [];
  const waiters: Array<(ms: number) => void> = [];
  return {
    now: () => t,
    sleeps,
    sleep(ms, signal) {
      sleeps.push(ms);
      for (const resolve of waiters.splice(0)) resolve(ms);
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const entry = { at: t + ms, wake: resolve };
        due.push(entry);
        signal?.addEventListener(
          'abort',
          () => {
            const i = due.indexOf(entry);
            if (i >= 0) due.splice(i, 1);
            resolve();
          },
          { once: true },
        );
      });
    },
    nextSleep() {
      return new Promise((resolve) => waiters.push(resolve));
    },
    advance(ms) {
      t += ms;
      for (const entry of due.filter((e) => e.at <= t)) {
        due.splice(due.indexOf(entry), 1);
        entry.wake();
      }
    },
  };
}
