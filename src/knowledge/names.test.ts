import { describe, expect, it } from 'vitest';
import { normName, normText } from './names.js';

describe('normName', () => {
  it('folds width, case, spaces and punctuation, in Chinese and English', () => {
    expect(normName('李卫东')).toBe(normName(' 李 卫东 '));
    expect(normName('Tony Tang')).toBe(normName('tony-tang'));
    expect(normName('ＡＢＣ公司')).toBe(normName('abc公司'));
    expect(normName('《潮汐》')).toBe(normName('潮汐'));
  });

  it('keeps a short name apart from the full name', () => {
    expect(normName('老李')).not.toBe(normName('李'));
    expect(normName('小赵')).not.toBe(normName('赵'));
  });
});

describe('normText', () => {
  it('compares texts whatever their spacing and punctuation', () => {
    expect(normText('Prefers aisle seats.')).toBe(normText('prefers  aisle seats'));
    expect(normText('以后会议纪要都用 Word。')).toBe(normText('以后会议纪要都用 word'));
    expect(normText('use Word')).not.toBe(normText('use Excel'));
  });
});
