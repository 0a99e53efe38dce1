import { describe, expect, it } from 'vitest';
import { planQuery } from './query.js';
import { contentSpan, maskChineseFunctionWords } from './query-zh.js';

const AT = Date.parse('2026-11-17T09:00:00+08:00');
const plan = (query: string) => planQuery(query, { at: AT, timeZone: 'Asia/Shanghai' });
/** Every term and single character the query would look up. */
const lookups = (query: string) => {
  const p = plan(query);
  return [...p.terms, ...p.chars];
};

describe('maskChineseFunctionWords', () => {
  it('blanks question words, particles, pronouns and demonstratives with their classifier', () => {
    expect(maskChineseFunctionWords('这台电脑是什么时候买的？')).toBe('  电脑   时候买 ？');
    expect(maskChineseFunctionWords('那张报销单')).toBe('  报销单');
    expect(maskChineseFunctionWords('那顿饭')).toBe('  饭');
    // 那 | 年纪: a classifier character that begins a word stays.
    expect(maskChineseFunctionWords('那年纪比你大吗')).toBe(' 年纪  大 ');
    expect(maskChineseFunctionWords('现在用的是哪个版本')).toBe('       版本');
  });

  it('cuts question words and particles from the ends of a segment, never from inside a word', () => {
    expect(contentSpan('多少钱')).toEqual([2, 3]);
    expect(contentSpan('花了')).toEqual([0, 1]);
    expect(contentSpan('目的')).toEqual([0, 2]);
    expect(contentSpan('是哪')).toEqual([0, 0]);
    expect(contentSpan('医生')).toEqual([0, 2]);
  });
});

describe('planQuery: Chinese question words are dropped whole (issue 11)', () => {
  it.each([
    [
      '那张没问我就直接交掉的报销，报的是寄什么东西的钱？',
      ['的报', '什', '么', '的钱', '的是', '那张', '张'],
    ],
    ['我爸眼睛那台手术，是哪位大夫给开的刀？', ['是哪', '哪位', '位', '台', '那台', '开的', '的刀']],
    ['小满明年的医保费要交多少？最晚哪天交？', ['多', '少', '多少', '哪', '的医', '天']],
    ['现在用的是哪个版本', ['现在', '现', '的是', '哪个', '个版']],
    ['为什么周报被退回了？是不是格式不对', ['为', '什', '是不', '不是', '回了', '了']],
  ])('%s selects no piece of them', (query, fragments) => {
    const terms = lookups(query);
    for (const fragment of fragments) expect(terms).not.toContain(fragment);
  });

  it('keeps the content words, their bigrams and characters', () => {
    const p = plan('我爸眼睛那台手术，是哪位大夫给开的刀？');
    expect(p.terms).toEqual(expect.arrayContaining(['眼睛', '手术', '大夫', '刀']));
    expect(p.chars).toEqual(expect.arrayContaining(['眼', '术', '夫']));
  });

  it('leaves the words of a Chinese time expression out, the time channel reads them', () => {
    const p = plan('国庆后上班第一天那场评审会上定了什么');
    expect(p.spans).toHaveLength(1);
    expect(p.terms).toContain('评审');
    for (const word of ['庆后', '上班', '第一', '一天']) expect(p.terms).not.toContain(word);
  });

  it('keeps the name of a festival it reads as a day: a text may tell what happened around it', () => {
    // 双十一的备货 was written weeks before 11 November; the name is what it shares with the question.
    const p = plan('双十一最先卖断货的是哪款茶');
    expect(p.spans).toHaveLength(1);
    expect(p.terms).toEqual(expect.arrayContaining(['双十', '十一']));
    expect(plan('国庆后上班第一天那场评审会上定了什么').terms).toContain('国庆');
    expect(plan('上个月第一个工作日的评审会').terms).not.toContain('工作');
  });
});
