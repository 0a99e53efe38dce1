// Per-query scores → means per group and overall, latency percentiles, and mnemo ÷ baseline.
import { mean, percentile } from './metrics.js';
import type { QueryScores } from './types.js';

export interface GroupSummary {
  n: number;
  metrics: Record<string, number>;
  /** Queries that carry a metric, where fewer than n do. */
  support?: Record<string, number>;
}

export interface LatencySummary {
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

export interface SystemSummary {
  overall: GroupSummary;
  groups: Record<string, GroupSummary>;
  latency_ms: LatencySummary;
}

export interface ScoredQuery {
  group: string;
  inOverall: boolean;
  scores: QueryScores;
  latencyMs: number;
}

export type Ratios = {
  overall: Record<string, number | null>;
  groups: Record<string, Record<string, number | null>>;
};

const round = (value: number, digits = 4): number => Number(value.toFixed(digits));

export function summarizeGroup(scores: readonly QueryScores[]): GroupSummary {
  const values = new Map<string, number[]>();
  for (const s of scores) {
    for (const [key, value] of Object.entries(s)) {
      const list = values.get(key) ?? [];
      list.push(value);
      values.set(key, list);
    }
  }
  const summary: GroupSummary = { n: scores.length, metrics: {} };
  for (const [key, list] of values) {
    summary.metrics[key] = round(mean(list));
    if (list.length < scores.length) (summary.support ??= {})[key] = list.length;
  }
  return summary;
}

export function summarizeLatency(values: readonly number[]): LatencySummary {
  return {
    p50: round(percentile(values, 50), 3),
    p95: round(percentile(values, 95), 3),
    mean: round(mean(values), 3),
    max: values.length > 0 ? round(Math.max(...values), 3) : Number.NaN,
  };
}

export function summarizeSystem(queries: readonly ScoredQuery[]): SystemSummary {
  const byGroup = new Map<string, QueryScores[]>();
  for (const q of queries) {
    const list = byGroup.get(q.group) ?? [];
    list.push(q.scores);
    byGroup.set(q.group, list);
  }
  const groups: Record<string, GroupSummary> = {};
  for (const name of [...byGroup.keys()].sort()) groups[name] = summarizeGroup(byGroup.get(name) ?? []);
  return {
    overall: summarizeGroup(queries.filter((q) => q.inOverall).map((q) => q.scores)),
    groups,
    latency_ms: summarizeLatency(queries.map((q) => q.latencyMs)),
  };
}

const ratioOf = (a: Record<string, number>, b: Record<string, number>): Record<string, number | null> =>
  Object.fromEntries(
    Object.entries(a).map(([key, value]) => {
      const base = b[key];
      return [key, base !== undefined && base > 0 ? round(value / base, 3) : null];
    }),
  );

/** mnemo ÷ baseline for every metric (null where the baseline scores 0). */
export function ratios(mnemo: SystemSummary, baseline: SystemSummary): Ratios {
  const groups: Ratios['groups'] = {};
  for (const [name, group] of Object.entries(mnemo.groups)) {
    groups[name] = ratioOf(group.metrics, baseline.groups[name]?.metrics ?? {});
  }
  return { overall: ratioOf(mnemo.overall.metrics, baseline.overall.metrics), groups };
}
