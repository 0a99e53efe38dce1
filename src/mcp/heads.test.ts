import { expect, it } from 'vitest';
import { estimateTokens } from '../llm/tokens.js';
import { cutHead, HEAD_TOKENS } from './heads.js';

it('cuts a head at about 48 estimated tokens: ~160 Latin characters, ~48 Chinese ones', () => {
  const latin = cutHead('word '.repeat(100));
  expect(latin.length).toBeGreaterThan(150);
  expect(latin.length).toBeLessThanOrEqual(162);
  const chinese = cutHead('发票报销'.repeat(40));
  expect([...chinese].length).toBe(HEAD_TOKENS + 1);
  for (const head of [latin, chinese]) {
    expect(head.endsWith('…')).toBe(true);
    expect(estimateTokens(head)).toBeLessThanOrEqual(HEAD_TOKENS + 1);
  }
});

it('keeps a short text whole, on one line', () => {
  expect(cutHead('  a\n\tshort   note ')).toBe('a short note');
});
