import { describe, expect, it } from 'vitest';
import { summarizeAbstention } from './abstention.js';
import type { QueryRecord } from './run-conversation.js';

const record = (abstention: boolean, match: number | null): QueryRecord =>
  ({
    id: 'q',
    owner: 'o',
    group: abstention ? 'abstention' : 'single-hop',
    in_overall: !abstention,
    ...(abstention ? { abstention: true } : {}),
    question: 'q',
    at: '',
    evidence: [],
    mnemo: {
      ranked: [],
      hits: {},
      scores: {},
      latency_ms: 1,
      top: match === null ? null : { score: 0.01, match },
    },
  }) as QueryRecord;

describe('summarizeAbstention', () => {
  it("sets the top hit's match of unanswerable questions beside the answerable ones", () => {
    const summary = summarizeAbstention([
      record(true, 0.1),
      record(true, null),
      record(false, 0.9),
      record(false, 0.35),
    ]);
    expect(summary?.abstention).toMatchObject({ n: 2, empty: 1, p50: 0 });
    expect(summary?.answerable).toMatchObject({ n: 2, empty: 0 });
    expect(summary?.thresholds.find((t) => t.match === 0.4)).toEqual({
      match: 0.4,
      abstention_flagged: 1,
      answerable_flagged: 0.5,
    });
  });

  it('is absent without abstention questions', () => {
    expect(summarizeAbstention([record(false, 0.5)])).toBeUndefined();
  });
});
