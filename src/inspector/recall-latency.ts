// The recall latencies this process measured: a ring of the newest samples, for health.history's chart.
import { allows, type Principal } from '../protocol/principal.js';

export interface RecallSample {
  at: number;
  owner: string;
  took_ms: number;
  items: number;
}

export interface RecallLatency {
  record(sample: RecallSample): void;
  /** The samples the principal may see (of one owner when given), oldest first. */
  samples(principal: Principal, owner?: string): RecallSample[];
}

export const RECALL_SAMPLES_KEPT = 512;

export function createRecallLatency(size = RECALL_SAMPLES_KEPT): RecallLatency {
  const ring: RecallSample[] = [];
  let next = 0;
  return {
    record(sample) {
      if (ring.length < size) ring.push(sample);
      else ring[next] = sample;
      next = (next + 1) % size;
    },
    samples(principal, owner) {
      const ordered = ring.length < size ? ring : [...ring.slice(next), ...ring.slice(0, next)];
      // invariant: a caller sees only the latencies of owners it may act for (test: recall-latency.test.ts).
      return ordered.filter((s) => (owner === undefined || s.owner === owner) && allows(principal, s.owner));
    },
  };
}

/** The q-quantile (0–1) of sorted values, by the nearest rank; null for none. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? null;
}
