// Standing rules and stated values in the user's own words, as facts with a subject and a predicate, so
// that a newer statement supersedes an older one without a model: "以后会议纪要都用 Word" → 会议纪要 · 格式 ·
// Word, "from now on book aisle seats" → seat · preference · aisle, "羽毛球课改到周六" → 羽毛球课 · 时间 · 周六.
import type { BatchEvent, ProposalInput } from './schema.js';

type MemoryInput = ProposalInput['memories'][number];

interface Statement {
  subject: string;
  object: string;
  /** The verb, when it says more than the object does (发给 → recipient). */
  verb?: string;
  lang: 'zh' | 'en';
}

const STOP = '，,。；;！!？?';
const ZH_PART = `[^${STOP}\\s]`;
const ZH_MARKER = '(?:以后|今后|从现在起|从今天起|往后|从此)';
// A subject never starts with the quantifier itself ("以后都用 pnpm" has none).
const ZH_SUBJECT = `(?<subject>(?!都|一律|统一|全部)${ZH_PART}{1,20}?)`;
const ZH_OBJECT = `(?<object>[^${STOP}]{1,40})`;

const ZH_RULE = new RegExp(
  `${ZH_MARKER}[，,\\s]*${ZH_SUBJECT}\\s*(?:都|一律|统一|全部|全都)\\s*(?:要|请)?\\s*` +
    `(?<verb>改用|使用|用|发给|发到|发|交给|放在|放到|定在|安排在|订|选|是)\\s*${ZH_OBJECT}`,
);
const ZH_VALUE = new RegExp(`${ZH_MARKER}[，,\\s]*${ZH_SUBJECT}\\s*(?<verb>是|用|改用|定为)\\s*${ZH_OBJECT}`);
const ZH_CHANGE = new RegExp(
  `^(?:请|帮我|麻烦)?(?:把|将)?${ZH_SUBJECT}\\s*(?:改到了?|改成了?|换成了?|改为|换到|挪到|调到|改在)\\s*${ZH_OBJECT}`,
);

const EN_MARKER = String.raw`\b(?:from now on|going forward|always)\b,?\s+(?:please\s+)?(?:always\s+)?`;
const EN_CHOOSE = new RegExp(
  String.raw`${EN_MARKER}(?:book|reserve|get|pick|choose|take)\s+(?:me\s+)?(?:an?\s+|the\s+)?` +
    String.raw`(?<object>[a-z][\w-]*)\s+(?<subject>[a-z]+)$`,
  'i',
);
const EN_USE = new RegExp(
  String.raw`${EN_MARKER}(?<verb>use|send|write|save|export|deliver|share|keep)\s+(?<a>.+?)\s+(?<prep>for|as|in)\s+(?<b>.+)$`,
  'i',
);
const EN_SUBJECT = String.raw`(?:(?:please\s+)?(?:remember|note)(?:\s+that)?\s+)?(?:the\s+|our\s+|my\s+)?(?<subject>[a-z][\w' -]{0,40}?)`;
const EN_NOW = new RegExp(
  String.raw`^${EN_SUBJECT}\s+(?:is|are)\s+now\s+(?:at\s+|on\s+|in\s+)?(?<object>.+)$`,
  'i',
);
const EN_MOVED = new RegExp(
  String.raw`^${EN_SUBJECT}\s+(?:has\s+|have\s+|was\s+|were\s+|got\s+)?(?:been\s+)?(?:moved|changed|switched)\s+to\s+(?<object>.+)$`,
  'i',
);

const PRONOUNS = /^(?:i|we|you|it|this|that|he|she|they|我|我们|你|它|他|她|这|那|这个|那个)$/i;

/** The predicate from the kind of value (formats, times, seats, places), else from the verb. */
const KINDS: ReadonlyArray<{ zh: string; en: string; token?: boolean; test: RegExp }> = [
  {
    zh: '格式',
    en: 'format',
    token: true,
    test: /\b(?:word|docx?|pdf|excel|xlsx?|csv|markdown|md|pptx?|powerpoint|keynote|json|html|txt|png|jpe?g)\b/i,
  },
  {
    zh: '时间',
    en: 'time',
    test: /周[一二三四五六日天末]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|[上下]午|早上|晚上|中午|凌晨|\d{1,2}\s*[点时]|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|\d{1,2}\s*[:：]\s*\d{2}|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:mornings?|afternoons?|evenings?|noon|midnight|weekends?)\b|\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b/i,
  },
  { zh: '偏好', en: 'preference', token: true, test: /\b(?:aisle|window|middle)\b|靠窗|靠过道|过道/i },
  {
    zh: '地点',
    en: 'place',
    test: /\d+\s*(?:号楼|楼|层|室)|会议室|办公室|大厦|中心|广场|公园|体育馆|球馆|酒店|机场|车站|[路街区市县省]$|\b(?:room|building|floor|office|hall|street|road|avenue|campus|park|airport|station|hotel)\b|^[A-Z][a-z]+(?:\s[A-Z][a-z]+)*$/,
  },
];
const RECIPIENT_VERBS = /^(?:发给|发到|交给|send)$/i;

const clean = (s: string): string =>
  s
    .trim()
    .replace(/[\s。.!！?？]+$/u, '')
    .replace(/[了吧啊哦呢哈]+$/u, '');
const singular = (w: string): string => (w.length > 3 && /[^s]s$/i.test(w) ? w.slice(0, -1) : w);
const stripArticle = (s: string): string => s.replace(/^(?:the|a|an|my|our)\s+/i, '');

function predicateOf(s: Statement): { predicate: string; object: string } {
  for (const kind of KINDS) {
    const found = kind.test.exec(s.object);
    if (found) return { predicate: kind[s.lang], object: kind.token ? found[0] : s.object };
  }
  if (s.verb && RECIPIENT_VERBS.test(s.verb)) {
    return { predicate: s.lang === 'zh' ? '收件人' : 'recipient', object: s.object.replace(/^给/, '') };
  }
  return { predicate: s.lang === 'zh' ? '设定' : 'setting', object: s.object };
}

function readZh(clause: string, sentence: string): Statement | null {
  const g = (ZH_RULE.exec(sentence) ?? ZH_VALUE.exec(sentence) ?? ZH_CHANGE.exec(clause))?.groups;
  if (!g?.subject || !g.object) return null;
  return { subject: g.subject, object: g.object, lang: 'zh', ...(g.verb ? { verb: g.verb } : {}) };
}

function readEn(clause: string): Statement | null {
  const choose = EN_CHOOSE.exec(clause)?.groups;
  if (choose?.subject && choose.object) {
    return { subject: singular(choose.subject), object: choose.object, lang: 'en' };
  }
  const use = EN_USE.exec(clause)?.groups;
  if (use?.a && use.b && use.prep) {
    const forX = use.prep.toLowerCase() === 'for';
    return { subject: stripArticle(forX ? use.b : use.a), object: forX ? use.a : use.b, lang: 'en' };
  }
  const g = (EN_NOW.exec(clause) ?? EN_MOVED.exec(clause))?.groups;
  return g?.subject && g.object ? { subject: g.subject, object: g.object, lang: 'en' } : null;
}

/** A fact for a standing rule or a stated value in one sentence of a user event, or null. */
export function standingFact(e: BatchEvent, sentence: string): MemoryInput | null {
  if (e.role !== 'user') return null;
  // The whole sentence first ("from now on, use PDF for …"), then each clause ("by the way, X moved to Y").
  const clauses = [sentence, ...sentence.split(/[，,；;：:]/)].map((c) => clean(c));
  for (const clause of clauses) {
    const read = /\p{Script=Han}/u.test(clause) ? readZh(clause, clean(sentence)) : readEn(clause);
    if (!read) continue;
    const subject = clean(read.subject);
    const { predicate, object } = predicateOf({ ...read, object: clean(read.object) });
    if (subject.length === 0 || object.length === 0 || PRONOUNS.test(subject)) continue;
    return {
      kind: 'fact',
      fact_kind: 'profile',
      text: sentence,
      subject,
      predicate,
      object,
      sources: e.event_ids ?? [e.event_id],
      quotes: [{ event_id: e.event_id, text: [...sentence].slice(0, 500).join('') }],
    };
  }
  return null;
}
