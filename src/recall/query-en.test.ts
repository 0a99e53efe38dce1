import { describe, expect, it } from 'vitest';
import { planQuery } from './query.js';

const AT = Date.parse('2026-11-17T09:00:00Z');
const plan = (query: string) => planQuery(query, { at: AT });

describe('planQuery: English words that only place a question in time are no terms (issue 11)', () => {
  it('reads lately, recently, currently as the order or current intent, not as terms', () => {
    const lately = plan('What music streaming service have I been using lately?');
    expect(lately.terms).not.toContain('lateli');
    expect(lately.terms).toEqual(expect.arrayContaining(['music', 'stream', 'servic']));
    expect(lately.order).toBe('recent');
    const now = plan('How many magazine subscriptions do I currently have?');
    expect(now.terms).not.toContain('currentli');
    expect(now.current).toBe(true);
    expect(plan('What did I buy on my most recent trip?').terms).not.toContain('recent');
    expect(plan('Where did we originally plan to go?').order).toBe('earliest');
    expect(plan('Where did we originally plan to go?').terms).not.toContain('originalli');
  });

  it('keeps the words that name a thing, and the same words inside other words', () => {
    expect(plan('What is my current address?').terms).toContain('current');
    expect(plan('Which recentness score did the latestage model get?').terms).toEqual(
      expect.arrayContaining(['latestag']),
    );
    // A Chinese query with an English time word keeps its Chinese terms.
    expect(plan('我 lately 在用哪个 app').terms).toContain('app');
  });
});
