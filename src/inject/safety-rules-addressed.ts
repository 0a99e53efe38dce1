// Safety rules for text that speaks to the AI reading it: "whichever AI tool is reading this", "Note to the
// summarizer:", "Assistant: …" inside a data field, 致邮件助手：…, 读到这里的AI, 处理本表的AI. Naming the
// reader says little alone; naming it and then asking something of it is an order planted in data, and is
// strong (never allowed from outside, however it is framed). The patterns are in -en.ts and -zh.ts.
import { ADDRESS_EN, ASKS_EN, MENTION, MODAL_EN, WEAK_ADDRESS_EN } from './safety-rules-addressed-en.js';
import { ADDRESS_ZH, ASKS_ZH, MODAL_ZH } from './safety-rules-addressed-zh.js';
import type { SafetyRule, SignalCode } from './safety-rule.js';

/** How far after the reader's name a request is looked for: the next sentence or two. */
const WINDOW = 200;
const CODE: SignalCode = 'addressee';

/** The reader named: `weight` alone, `ordered` when a request follows; its span runs to the request. */
function addressed(sources: string[], asks: RegExp, weight: number, ordered: number): SafetyRule[] {
  const pattern = new RegExp(sources.join('|'), 'giu');
  // Both rules read the same matches of the same text, one after the other: they are found once.
  let last: { text: string; named: [number, number][]; asked: [number, number][] } | null = null;
  const spans = (text: string): NonNullable<typeof last> => {
    if (last?.text === text) return last;
    const named: [number, number][] = [];
    const asked: [number, number][] = [];
    for (const m of text.matchAll(pattern)) {
      const start = m.index + (m[0].length - m[0].trimStart().length);
      const end = m.index + m[0].length;
      named.push([start, end]);
      const ask = asks.exec(text.slice(end, end + WINDOW));
      if (ask) asked.push([start, end + ask.index + ask[0].length]);
    }
    last = { text, named, asked };
    return last;
  };
  return [
    { code: CODE, weight, find: (text) => spans(text).named },
    { code: CODE, weight: ordered, find: (text) => spans(text).asked },
  ];
}

function plain(weight: number, source: string): SafetyRule {
  const pattern = new RegExp(source, 'giu');
  return {
    code: CODE,
    weight,
    *find(text) {
      for (const m of text.matchAll(pattern)) yield [m.index, m.index + m[0].length];
    },
  };
}

const asksEn = new RegExp(ASKS_EN, 'iu');
const asksZh = new RegExp(ASKS_ZH, 'u');

export const ADDRESSED_RULES: SafetyRule[] = [
  ...addressed(ADDRESS_EN, asksEn, 0.45, 0.75),
  ...addressed(ADDRESS_ZH, asksZh, 0.45, 0.75),
  ...addressed(WEAK_ADDRESS_EN, asksEn, 0.3, 0.5),
  ...addressed([MENTION], new RegExp(`${ASKS_EN}|${ASKS_ZH}`, 'iu'), 0.3, 0.5),
  plain(0.5, MODAL_EN),
  plain(0.5, MODAL_ZH),
];
