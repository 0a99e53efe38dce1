import { describe, expect, it } from 'vitest';
import { backgroundWeight, buildBackground, loadBackground } from './background.js';

describe('the background corpus', () => {
  const background = buildBackground([
    { word: 'the', count: 60_000 },
    { word: 'many', count: 3_000 },
    { word: 'attend', count: 20 },
    { word: 'attended', count: 10 },
    { word: 'I', count: 5_000 },
  ]);
  // A small owner: 100 documents of 20 tokens, where both words are in 5 documents.
  const owner = { docs: 100, tokens: 2_000 };

  it('folds word counts onto index terms, stemmed as the tokenizer stems them', () => {
    expect(background.docShare('attend')).toBeCloseTo(30 / 68_030, 10);
    expect(background.docShare('潮汐')).toBeUndefined();
  });

  it('weighs a word common in English at large below a rare one the owner holds as often', () => {
    const many = backgroundWeight('mani', 5, owner, background);
    const attend = backgroundWeight('attend', 5, owner, background);
    expect(many).toBeLessThan(attend);
    expect(backgroundWeight('潮汐', 5, owner, background)).toBe(1);
  });

  it('reads SUBTLEX-US from its package', () => {
    const subtlex = loadBackground();
    expect(subtlex.docShare('mani') ?? 0).toBeGreaterThan(subtlex.docShare('attend') ?? 1);
  });
});
