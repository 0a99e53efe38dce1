import { describe, expect, it } from 'vitest';
import { stemEnglish } from './stem.js';
import { isStopWord } from './stopwords.js';

describe('isStopWord', () => {
  it('knows English function words and their stems', () => {
    for (const word of [
      'what',
      'did',
      'the',
      'i',
      'my',
      'you',
      'with',
      'about',
      'why',
      'during',
      'themselves',
    ]) {
      expect(isStopWord(word), word).toBe(true);
      expect(isStopWord(stemEnglish(word)), stemEnglish(word)).toBe(true);
    }
  });

  it('knows Chinese particles, pronouns and question words', () => {
    for (const word of [
      '的',
      '了',
      '吗',
      '我',
      '你',
      '是',
      '在',
      '什么',
      '怎么',
      '呢',
      '吧',
      '为什么',
      '我们',
    ]) {
      expect(isStopWord(word), word).toBe(true);
    }
  });

  it('leaves content words alone, in both languages', () => {
    for (const word of [
      'invoice',
      'meeting',
      'may',
      'like',
      'quit',
      'use',
      'id',
      'well',
      '发票',
      '报销',
      '会议',
      '上周',
    ]) {
      expect(isStopWord(word), word).toBe(false);
      expect(isStopWord(stemEnglish(word)), word).toBe(false);
    }
  });

  it('expects tokens: upper case is not folded here', () => {
    expect(isStopWord('The')).toBe(false);
  });
});
