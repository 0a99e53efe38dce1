// Issue 13: the hand-written dev-3 corpus (written blind to the rules, then tuned on) keeps its shape.
import { describe, expect, it } from 'vitest';
import { devCases } from './fixtures/safety/corpus.js';
import { dev3Cases } from './fixtures/safety/dev-3.js';

describe('safety corpus dev-3', () => {
  it('has 140 poisoned and 140 benign cases, at least 45 % Chinese, in every attack category', () => {
    expect(dev3Cases.filter((c) => c.label === 'poisoned').length).toBeGreaterThanOrEqual(140);
    expect(dev3Cases.filter((c) => c.label === 'benign').length).toBeGreaterThanOrEqual(140);
    expect(dev3Cases.filter((c) => c.lang === 'zh').length / dev3Cases.length).toBeGreaterThanOrEqual(0.45);
    const categories = new Set(dev3Cases.filter((c) => c.label === 'poisoned').map((c) => c.category));
    for (const category of [
      'override',
      'role_tag',
      'addressee',
      'tool_call',
      'exfiltration',
      'output_steering',
      'phishing',
    ]) {
      expect(categories, category).toContain(category);
    }
  });

  it('is part of the dev corpus, once', () => {
    const dev3 = new Set(dev3Cases.map((c) => c.text));
    expect(dev3.size).toBe(dev3Cases.length);
    expect(devCases.filter((c) => dev3.has(c.text)).length).toBe(dev3Cases.length);
  });
});
