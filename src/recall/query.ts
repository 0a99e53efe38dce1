// A query read once: its index terms, the single Han characters of its words, what it says about time.
import { hanCharacters, isStopWord, queryTerms } from '../text/tokenize.js';
import { DAY, type Span } from './calendar.js';
import { asksForCurrent } from './current.js';
import { FESTIVAL_NAMES } from './holidays.js';
import { asksForRule } from './rules.js';
import type { Dictionary } from './dictionary.js';
import { maskChineseFunctionWords } from './query-zh.js';
import { parseTimeIntent, type TimeOrder } from './time-intent.js';
import { translateQuery, type Translation } from './translate.js';
import { splitHop, type HopSplit } from './hop.js';

export interface QueryPlan {
  /** Index terms, without the words of the time expressions (the time channel reads those). */
  terms: string[];
  /** Han characters of multi-character words, matched in the low-weight single-character field. */
  chars: string[];
  /** Translations of the query into the other language (English ↔ Chinese), scored at a lower weight. */
  translated: Translation[];
  /** Padded spans of the time expressions; empty when the query names no time. */
  spans: Span[];
  order?: TimeOrder;
  /** The query speaks as the user (I, my, 我): the user's own turns are likelier evidence. */
  firstPerson: boolean;
  /** The query asks about the present state (现在, 目前, currently, still): the newest statement wins. */
  current: boolean;
  /** The query asks how something should be done: standing rules ("以后…", "from now on") weigh more. */
  rule: boolean;
  /** The question describes its subject by a clause: asked in two hops. */
  hop?: HopSplit;
}

export interface PlanOptions {
  at: number;
  timeZone?: string;
  /** The bilingual dictionary; absent: no translated terms. */
  dictionary?: Dictionary;
}

const FIRST_PERSON = /\b(?:i|me|my|mine|myself)\b|我(?!们)/u;
// Month and day names of a time expression stay terms: a text may name the day it tells of.
const NAMED_TIME =
  /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)/;

/**
 * People speak loosely of time ("last week" for ten days ago) and tell of a thing on the day or in
 * the days after it: a span grows by half its length on each side, at least a day before and two after.
 */
export const padSpan = (span: Span): Span => {
  const half = Math.round((span.to - span.from) / 2);
  return { from: span.from - Math.max(DAY, half), to: span.to + Math.max(2 * DAY, half) };
};

const HAN = /\p{sc=Han}/u;

/** Blanks each phrase out of `text` (same length), so no term spans its edges. */
const blankOut = (text: string, phrases: readonly string[]): string =>
  phrases.reduce((out, phrase) => out.replaceAll(phrase, ' '.repeat(phrase.length)), text);

export function planQuery(query: string, options: PlanOptions): QueryPlan {
  const intent = parseTimeIntent(query, options.at, options.timeZone);
  const chinese = intent.phrases.filter((p) => HAN.test(p));
  const timeWords = new Set(queryTerms(intent.phrases.filter((p) => !HAN.test(p)).join(' ')));
  // Chinese time phrases and function words are cut out of the text before it is tokenized: none of
  // their characters or bigrams becomes a term.
  const text = maskChineseFunctionWords(blankOut(query.normalize('NFKC').toLowerCase(), chinese));
  // A festival names what happened around it as well as a day (双十一的备货): its name stays a term.
  const festivals = FESTIVAL_NAMES.filter((name) => chinese.some((p) => p.includes(name)));
  const terms = [
    ...queryTerms(text).filter((t) => !timeWords.has(t) || NAMED_TIME.test(t)),
    ...festivals
      .filter((name, i) => !festivals.slice(0, i).some((longer) => longer.includes(name)))
      .flatMap((name) => queryTerms(name)),
  ].filter((t, i, all) => all.indexOf(t) === i);
  const words = new Set(terms);
  const chars = hanCharacters(terms.filter((t) => t.length > 1)).filter(
    (c) => !words.has(c) && !isStopWord(c),
  );
  const plan: QueryPlan = {
    terms,
    chars,
    translated: options.dictionary ? translateQuery(text, terms, options.dictionary) : [],
    spans: intent.spans.map(padSpan),
    firstPerson: FIRST_PERSON.test(query.toLowerCase()),
    current: asksForCurrent(query.normalize('NFKC').toLowerCase()),
    rule: asksForRule(query),
  };
  if (intent.order) plan.order = intent.order;
  const hop = splitHop(query);
  if (hop) plan.hop = hop;
  return plan;
}
