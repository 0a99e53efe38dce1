// Abstention: what the top hit scores when nothing answers, beside the questions that have an answer, so that a
// host can pick a `match` below which it says "nothing relevant".
import { mean, percentile } from './metrics.js';
import type { QueryRecord } from './run-conversation.js';

export const MATCH_THRESHOLDS = [0.2, 0.3, 0.4, 0.5, 0.6];

export interface MatchSummary {
  n: number;
  /** Questions whose recall returned nothing at all. */
  empty: number;
  mean: number;
  p10: number;
  p50: number;
  p90: number;
}

export interface AbstentionSummary {
  /** The top item's match (share of the query's term weight it holds) when nothing answers. */
  abstention: MatchSummary;
  /** The same for the questions that have gold evidence. */
  answerable: MatchSummary;
  /** Per threshold: the share of each kind whose top match falls below it (flagged "nothing relevant"). */
  thresholds: { match: number; abstention_flagged: number; answerable_flagged: number }[];
}

const round = (v: number) => Number(v.toFixed(3));

function summarize(records: readonly QueryRecord[]): MatchSummary {
  const matches = records.map((r) => r.mnemo.top?.match ?? 0);
  return {
    n: records.length,
    empty: records.filter((r) => !r.mnemo.top).length,
    mean: round(mean(matches)),
    p10: round(percentile(matches, 10)),
    p50: round(percentile(matches, 50)),
    p90: round(percentile(matches, 90)),
  };
}

/** Undefined when the dataset has no abstention question. */
export function summarizeAbstention(records: readonly QueryRecord[]): AbstentionSummary | undefined {
  const abstention = records.filter((r) => r.abstention);
  const answerable = records.filter((r) => !r.abstention && r.in_overall);
  if (abstention.length === 0 || answerable.length === 0) return undefined;
  const below = (list: readonly QueryRecord[], t: number) =>
    round(list.filter((r) => (r.mnemo.top?.match ?? 0) < t).length / list.length);
  return {
    abstention: summarize(abstention),
    answerable: summarize(answerable),
    thresholds: MATCH_THRESHOLDS.map((t) => ({
      match: t,
      abstention_flagged: below(abstention, t),
      answerable_flagged: below(answerable, t),
    })),
  };
}

export function renderAbstention(summary: AbstentionSummary): string[] {
  const row = (name: string, m: MatchSummary) =>
    `| ${name} | ${m.n} | ${m.empty} | ${m.mean.toFixed(3)} | ${m.p10.toFixed(3)} | ${m.p50.toFixed(3)} | ${m.p90.toFixed(3)} |`;
  return [
    '## Abstention: the top hit when nothing answers',
    '',
    "`match` is the share of the query's selected term weight the top item holds (0–1).",
    '',
    '| questions | n | nothing returned | mean | p10 | p50 | p90 |',
    '|---|--:|--:|--:|--:|--:|--:|',
    row('abstention (no gold)', summary.abstention),
    row('answerable', summary.answerable),
    '',
    '| top match below | abstention flagged | answerable flagged |',
    '|--:|--:|--:|',
    ...summary.thresholds.map(
      (t) => `| ${t.match} | ${t.abstention_flagged.toFixed(3)} | ${t.answerable_flagged.toFixed(3)} |`,
    ),
    '',
  ];
}
