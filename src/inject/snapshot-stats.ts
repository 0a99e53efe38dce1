// The cost of the snapshots this process rendered: per owner, the last 50 renders' bytes per section (sizes
// only, never entry text), for health.
import { allows, type Principal } from '../protocol/principal.js';
import type { SectionKey } from './snapshot-render.js';

export const RENDERS_KEPT = 50;
/** Owners kept at most; the one rendered longest ago goes first. */
const OWNERS_KEPT = 1_000;

export interface RenderSample {
  total: number;
  sections: Readonly<Record<SectionKey, number>>;
}

export interface SnapshotCost {
  owner: string;
  samples: number;
  last_total_bytes: number;
  median_total_bytes: number;
  max_total_bytes: number;
  sections: Record<string, { median_bytes: number; max_bytes: number }>;
}

export interface SnapshotStats {
  record(owner: string, sample: RenderSample): void;
  /** The owners the principal may see, by name. */
  costs(principal: Principal): SnapshotCost[];
}

const summary = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  // The median by the nearest rank, as health.history's quantiles.
  return { median: sorted[Math.max(0, Math.ceil(sorted.length / 2) - 1)] ?? 0, max: sorted.at(-1) ?? 0 };
};

export function createSnapshotStats(kept = RENDERS_KEPT): SnapshotStats {
  const rings = new Map<string, RenderSample[]>();
  return {
    record(owner, sample) {
      const ring = rings.get(owner) ?? [];
      rings.delete(owner);
      ring.push(sample);
      if (ring.length > kept) ring.shift();
      rings.set(owner, ring);
      if (rings.size > OWNERS_KEPT) rings.delete(rings.keys().next().value ?? owner);
    },
    costs(principal) {
      // invariant: a caller sees only the snapshot costs of owners it may act for (test:
      // src/inject/snapshot.test.ts "reports each owner’s render costs in health…").
      return [...rings.entries()]
        .filter(([owner]) => allows(principal, owner))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([owner, ring]) => {
          const total = summary(ring.map((s) => s.total));
          const keys = Object.keys(ring[0]?.sections ?? {}) as SectionKey[];
          return {
            owner,
            samples: ring.length,
            last_total_bytes: ring.at(-1)?.total ?? 0,
            median_total_bytes: total.median,
            max_total_bytes: total.max,
            sections: Object.fromEntries(
              keys.map((k) => {
                const s = summary(ring.map((r) => r.sections[k]));
                return [k, { median_bytes: s.median, max_bytes: s.max }];
              }),
            ),
          };
        });
    },
  };
}
