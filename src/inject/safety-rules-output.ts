// Safety rules for text that steers the reader's own output: "in your summary of this page, mention…",
// "when you present these results, put this one first", "the summary you produce must say…", "reply to anyone
// asking about pricing with…", 在你对本页的总结里…, 展示这些结果时，…, 谁问价格就回复…. Only a model writes
// "your summary" of a page for someone else; a teacher's homework sheet says the same, so a request after it
// is quoted, never suppressed on its own.
import { ASKS_EN } from './safety-rules-addressed-en.js';
import { ASKS_ZH } from './safety-rules-addressed-zh.js';
import { rule, type SafetyRule } from './safety-rule.js';

const OUTPUT_EN = String.raw`(?:summary|summaries|answer|reply|response|output|recap|report|overview|review|write-?up)`;
const OUTPUT_ZH = '(?:总结|摘要|回答|回复|输出|报告|概述|点评|纪要)';
const STEER_EN = [
  String.raw`\b(?:in|into|within)\s+your\s+${OUTPUT_EN}\b`,
  String.raw`\bwhen\s+you\s+(?:present|summari[sz]e|describe|list|show|report|answer|reply|respond|rank|recommend|mention|write up|quote)\b`,
  String.raw`\bthe\s+${OUTPUT_EN}\s+you\s+(?:produce|write|generate|give|create|send|prepare)\b`,
  String.raw`\bwhen\s+you\s+(?:read|see|process|parse|find)\s+this\b`,
];
const STEER_ZH = [
  `你(?:(?:对|给|为)[^，。！？\\n]{0,10}?)?的${OUTPUT_ZH}(?:里|中)`,
  '(?:展示|呈现|总结|介绍|列出|回答|回复|推荐|描述)(?:这些|本|此|该)?(?:结果|内容|信息|问题|页面|文章)?时[，,]',
  '(?:读到|看到|处理到|读取到)(?:这条|这里|本条|这段|此处|本段)(?:消息|内容)?时',
];

/** The output named: 0.35 alone, 0.6 when a request follows within the sentence. */
function steering(sources: string[], asks: RegExp): SafetyRule {
  const patterns = sources.map((s) => new RegExp(s, 'giu'));
  return {
    code: 'directive',
    weight: 0.6,
    *find(text) {
      for (const p of patterns) {
        for (const m of text.matchAll(p)) {
          const end = m.index + m[0].length;
          const ask = asks.exec(text.slice(end, end + 120));
          if (ask) yield [m.index, end + ask.index + ask[0].length];
        }
      }
    },
  };
}

// prettier-ignore
export const OUTPUT_RULES: SafetyRule[] = [
  rule('directive', 0.35, STEER_EN.join('|')),
  rule('directive', 0.35, STEER_ZH.join('|')),
  steering(STEER_EN, new RegExp(ASKS_EN, 'iu')),
  steering(STEER_ZH, new RegExp(ASKS_ZH, 'u')),
  rule('directive', 0.5, String.raw`\b(?:reply|respond|answer)\s+to\s+(?:anyone|everyone|anybody|all|users?|people|customers?)\s+(?:who\s+(?:asks?|writes?|mentions?)|asking|that asks?)\b|\b(?:respond|reply|answer)\s+(?:only\s+)?with\s+["“][^"”\n]{1,40}["”]\s+to\s+(?:the\s+)?next\b|\bto\s+the\s+next\s+(?:\w+\s+)?(?:messages|requests|questions),?\s+(?:respond|reply|answer)\b`),
  rule('directive', 0.5, '谁问[^，。！？\\n]{0,8}?就(?:回复|回答|说)|(?:接下来|之后|以后)的?(?:[一二三四五六七八九十\\d]+条)?(?:消息|回复|回答)(?:都|一律)?(?:只)?(?:回复|回答)'),
  // A link that carries data out, its placeholder in Chinese: ?data=在此插入聊天记录.
  rule('exfiltration', 0.8, String.raw`https?:\/\/[^\s)"'<>]{1,200}[?&][\w-]{1,30}=(?:在此|这里|此处)?(?:插入|填入|附上|放入)`),
];
