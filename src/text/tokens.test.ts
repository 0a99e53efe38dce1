import { describe, expect, it } from 'vitest';
import { estimateTokens, loadTokenCounter, portableCounter, PORTABLE_TOKENIZER } from './tokens.js';

const CHINESE = '帮我整理九月份的发票报销，单号 RB-2026-0917，明天上午十点前发给财务。';
const ENGLISH =
  'Found invoice_2026-09.pdf with three invoices; forwarded them to accounting before the deadline.';

describe('token counts', () => {
  it('counts every CJK character as one token and other characters at 0.3, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('发票')).toBe(2);
    expect(estimateTokens('かなカナ한글')).toBe(6);
    expect(estimateTokens('abc')).toBe(1);
    expect(estimateTokens('abcd')).toBe(2);
    expect(estimateTokens('发票 ok')).toBe(Math.ceil(2 + 3 * 0.3));
    // Full-width punctuation costs a token of its own, as in real tokenizers.
    expect(estimateTokens('好，的。')).toBe(4);
    expect(portableCounter.name).toBe(PORTABLE_TOKENIZER);
  });

  it('counts Chinese close to the exact o200k tokenizer and English above it', async () => {
    const exact = await loadTokenCounter('exact');
    expect(exact.name).toBe('o200k_base');
    for (const text of [CHINESE, CHINESE.repeat(20)]) {
      expect(estimateTokens(text) / exact.count(text)).toBeGreaterThan(0.9);
      expect(estimateTokens(text) / exact.count(text)).toBeLessThan(1.1);
    }
    for (const text of [ENGLISH, ENGLISH.repeat(20)]) {
      expect(estimateTokens(text)).toBeGreaterThanOrEqual(exact.count(text));
    }
    // Text that looks like a special token is counted as text, never refused.
    expect(exact.count('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('answers the estimate unless the exact tokenizer is asked for', async () => {
    expect(await loadTokenCounter()).toBe(portableCounter);
    expect(await loadTokenCounter('estimate')).toBe(portableCounter);
  });
});
