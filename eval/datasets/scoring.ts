// Metric families shared by the dataset modules.
import { ndcgAtK, recallAllAtK, recallAnyAtK, recallAtK } from '../metrics.js';
import type { QueryScores } from '../types.js';

type Metric = (ranked: readonly string[], evidence: readonly string[], k: number) => number;

export const METRICS = {
  recall: recallAtK,
  recall_all: recallAllAtK,
  recall_any: recallAnyAtK,
  ndcg: ndcgAtK,
} satisfies Record<string, Metric>;

/** Writes `<prefix><metric>@k` for every k into `into`. */
export function scoreFamily(
  into: QueryScores,
  prefix: string,
  metric: keyof typeof METRICS,
  ranked: readonly string[],
  evidence: readonly string[],
  ks: readonly number[],
): QueryScores {
  for (const k of ks) into[`${prefix}${metric}@${k}`] = METRICS[metric](ranked, evidence, k);
  return into;
}
