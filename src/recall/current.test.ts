import { describe, expect, it } from 'vitest';
import { asksForCurrent, orderByCurrency } from './current.js';

const DAY = 86_400_000;
const statement = (key: string, day: number, terms: Record<string, number>) => ({
  key,
  at: day * DAY,
  terms: new Map(Object.entries(terms)),
});

describe('what is current', () => {
  it('reads questions about the present state in Chinese and English', () => {
    expect(asksForCurrent('现在用的是哪个版本')).toBe(true);
    expect(asksForCurrent('目前的站会几点')).toBe(true);
    expect(asksForCurrent('which version do i use now')).toBe(true);
    expect(asksForCurrent('is the pilot still on for december')).toBe(true);
    expect(asksForCurrent('上周用的哪个版本')).toBe(false);
    expect(asksForCurrent('which version did i install')).toBe(false);
  });

  it('puts the newest statement on a subject first and the ones it supersedes last', () => {
    const { current, superseded } = orderByCurrency([
      statement('v1', 1, { 版本: 2, 助手: 1 }),
      statement('v2', 10, { 版本: 2, 助手: 1, 升级: 1 }),
      statement('other', 5, { 天气: 1 }),
    ]);
    expect(superseded).toEqual(new Set(['v1']));
    expect(current).toEqual(['v2', 'other', 'v1']);
  });

  it('lets a reply confirm a statement made hours before without superseding it', () => {
    const { superseded } = orderByCurrency([
      statement('said', 1, { 版本: 2 }),
      { key: 'confirmed', at: DAY + 60_000, terms: new Map([['版本', 2]]) },
    ]);
    expect(superseded.size).toBe(0);
  });
});
