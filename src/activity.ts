// Client activity: which client writes are in flight, so that background workers yield to them.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { MethodTable } from './protocol/method.js';

/**
 * A worker waits until no client write has ended for this long. A bulk client's next call follows its last
 * answer within a few milliseconds (encode, round trip), so 250 ms spans the gaps of a bulk ingest, while an
 * agent writing an event every second or so still sees its events observed a quarter second later.
 */
export const QUIET_MS = 250;
/**
 * …but never waits longer than this since its last turn: under continuous writes a worker still runs a batch
 * every 5 s, so observation falls behind but never stops, and a backlog is bounded by the load, not starved.
 */
export const MAX_DEFER_MS = 5_000;

/** The name the observation worker's gate reports its deferral under (`memory.observation.status`). */
export const OBSERVATION_WORKER = 'observation';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Resolves after `ms`, or at once when `signal` aborts; never rejects. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export interface ActivitySnapshot {
  /** Client writes running now. */
  inFlight: number;
  /** When the last one ended, on the activity clock; -Infinity before the first. */
  lastEndedAt: number;
}

export interface ClientActivity {
  /** A client write starts; call the returned function once when it ends. */
  begin(): () => void;
  track<T>(work: () => Promise<T>): Promise<T>;
  snapshot(): ActivitySnapshot;
  /** Calls `listener` each time the last write in flight ends; returns the unsubscribe. */
  onSettled(listener: () => void): () => void;
  /** The activity clock: monotonic milliseconds. */
  now(): number;
  /** Whether the named background worker defers to clients now; undefined when no such worker runs. */
  deferring(name: string): boolean | undefined;
  setDeferring(name: string, deferring: boolean): void;
}

export function createClientActivity(options: { now?: () => number } = {}): ClientActivity {
  const now = options.now ?? (() => performance.now());
  let inFlight = 0;
  let lastEndedAt = -Infinity;
  const listeners = new Set<() => void>();
  const workers = new Map<string, boolean>();
  const activity: ClientActivity = {
    begin() {
      inFlight++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        lastEndedAt = now();
        if (inFlight === 0) for (const listener of listeners) listener();
      };
    },
    async track(work) {
      const end = activity.begin();
      try {
        return await work();
      } finally {
        end();
      }
    },
    snapshot: () => ({ inFlight, lastEndedAt }),
    onSettled(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    now,
    deferring: (name) => workers.get(name),
    setDeferring: (name, deferring) => void workers.set(name, deferring),
  };
  return activity;
}

export interface TurnLimits {
  quietMs: number;
  maxDeferMs: number;
}

/** How long a worker still waits: 0 once the clients are quiet, or once it has waited its longest. */
export function turnDelay(
  state: ActivitySnapshot & { lastTurnAt: number; now: number },
  limits: TurnLimits,
): number {
  const forced = state.lastTurnAt + limits.maxDeferMs;
  const quiet = state.inFlight > 0 ? Infinity : state.lastEndedAt + limits.quietMs;
  return Math.max(0, Math.min(forced, quiet) - state.now);
}

export interface TurnGate {
  /** Resolves when the worker may run its next batch, or at once when `signal` aborts. */
  waitTurn(signal?: AbortSignal): Promise<void>;
}

export interface TurnGateOptions extends Partial<TurnLimits> {
  activity: ClientActivity;
  /** Reported by `activity.deferring(name)`. */
  name: string;
  sleep?: Sleep;
}

export function createTurnGate(options: TurnGateOptions): TurnGate {
  const { activity, name } = options;
  const limits = { quietMs: options.quietMs ?? QUIET_MS, maxDeferMs: options.maxDeferMs ?? MAX_DEFER_MS };
  const pause = options.sleep ?? sleep;
  let lastTurnAt = activity.now();
  activity.setDeferring(name, false);
  return {
    async waitTurn(signal) {
      // The store answers synchronously, so a busy worker's awaits never leave the microtask queue: without
      // this hop no socket would be read until the backlog is gone, and a client's write could not begin.
      await nextMacrotask();
      // invariant: a worker waits while a client write runs or ended less than the quiet window ago, and
      // never longer than the maximum deferral since its last turn (test: src/activity.test.ts).
      for (;;) {
        if (signal?.aborted) break;
        const now = activity.now();
        const delay = turnDelay({ ...activity.snapshot(), lastTurnAt, now }, limits);
        if (delay <= 0) {
          lastTurnAt = now;
          break;
        }
        activity.setDeferring(name, true);
        // The last write ending moves the quiet deadline: wake up and look again.
        const wake = new AbortController();
        const stop = () => wake.abort();
        const unsubscribe = activity.onSettled(stop);
        signal?.addEventListener('abort', stop, { once: true });
        try {
          await pause(delay, wake.signal);
        } finally {
          unsubscribe();
          signal?.removeEventListener('abort', stop);
        }
      }
      activity.setDeferring(name, false);
    },
  };
}

/** The table with every client write marked in `activity` while it runs. */
export function trackClientWrites(table: MethodTable, activity: ClientActivity): MethodTable {
  return new Map(
    [...table].map(([name, def]) => [
      name,
      def.access === 'write'
        ? { ...def, handler: (params, ctx) => activity.track(() => def.handler(params, ctx)) }
        : def,
    ]),
  );
}
