// Two-hop questions: "双十一最先卖断货的那款茶，表弟当初给备了多少？" describes a thing by a clause (the anchor) and
// asks about it in the rest. The anchor's best matches name the thing (桂花龙井) that the answer holds and the
// question never says; the rest of the question is asked again with those bridging terms.
import { getEventsByIds } from '../ingest/store.js';
import {
  MAX_LOOKUPS,
  searchBm25,
  selectTerms,
  type Bm25Hit,
  type ColumnWeights,
  type DocFilters,
} from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { isStopWord, queryTerms, tokenize } from '../text/tokenize.js';
import { maskChineseFunctionWords } from './query-zh.js';

/** The two parts of a question that describes its subject by a relative clause. */
export interface HopSplit {
  /** The describing clause with the thing's noun: what the anchor search looks for. */
  anchor: string;
  /** The thing's noun and the rest of the question: what is asked of it. */
  rest: string;
}

// A clause, "(的)那" with a classifier or a time noun, the noun, a comma, then the question proper:
// 老郑批的那笔招待费，… / 婆婆来照看满满的那几天，… / 去上海见客户那次，…
const CLAUSE =
  /^(?<clause>[^，,。？?；;]{3,}?)的?那(?<classifier>几天|几次|天|次|阵子|段时间|[个位张台家款趟笔件份只条场封辆套])(?<noun>[^，,。？?；;]{0,8})[，,](?<rest>[^]{3,})$/u;

export function splitHop(query: string): HopSplit | undefined {
  const m = CLAUSE.exec(query.normalize('NFKC').trim());
  const g = m?.groups;
  if (!g?.clause || g.rest === undefined) return undefined;
  const noun = g.noun ?? '';
  return { anchor: `${g.clause} ${noun}`, rest: `${noun} ${g.rest}` };
}

export interface HopOptions {
  /** Best anchor matches read for bridging terms. */
  anchors: number;
  /** Bridging terms taken per anchor match: its rarest that another document holds too. */
  bridges: number;
  limit: number;
  weights: ColumnWeights;
}

export const HOP: Omit<HopOptions, 'limit' | 'weights'> = { anchors: 2, bridges: 4 };

const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN = /\p{sc=Han}/u;

/** The words of a text that are index terms of their own: segmenter words, never the bigrams between them. */
function wordsOf(text: string): string[] {
  // The text tokenized once: a word is a bridge only as the index term the text holds.
  const held = new Set(tokenize(text));
  const out = new Set<string>();
  for (const { segment, isWordLike } of SEGMENTER.segment(text.normalize('NFKC').toLowerCase())) {
    if (!isWordLike || segment.length < 2) continue;
    if (HAN.test(segment) ? segment.length > 6 : !/^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u.test(segment)) continue;
    if (held.has(segment)) out.add(segment);
  }
  return [...out];
}

const termsOf = (text: string): string[] =>
  queryTerms(maskChineseFunctionWords(text.normalize('NFKC').toLowerCase())).filter((t) => !isStopWord(t));

/** The rest of the question's hits, asked with the terms bridging to what the clause's best matches name. */
export async function searchHop(
  db: Queryable,
  split: HopSplit,
  filters: DocFilters,
  options: HopOptions,
): Promise<Bm25Hit[]> {
  const search = { limit: options.limit, weights: options.weights };
  const anchorTerms = termsOf(split.anchor);
  const anchorSel = await selectTerms(db, filters.owner, anchorTerms);
  const anchor = (await searchBm25(db, anchorSel, filters, { ...search, limit: 10 })).hits;
  const restTerms = termsOf(split.rest);
  const asked = new Set([...anchorTerms, ...restTerms]);
  const best = anchor.filter((h) => h.kind === 'event').slice(0, options.anchors);
  const events = await getEventsByIds(
    db,
    filters.owner,
    best.map((h) => h.ref),
  );
  // One lookup of document frequencies for both events' words.
  const words = events.map((e) => wordsOf(e.text).filter((t) => !asked.has(t) && !isStopWord(t)));
  const stats = await selectTerms(db, filters.owner, [...new Set(words.flat())], {
    maxTerms: MAX_LOOKUPS,
    maxPostings: Infinity,
  });
  const df = new Map([...stats.selected, ...stats.dropped].map((s) => [s.term, s.df]));
  const bridges: string[] = [];
  for (const list of words) {
    const shared = list
      .filter((t) => (df.get(t) ?? 0) >= 2)
      .sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0))
      .slice(0, options.bridges);
    for (const t of shared) if (!bridges.includes(t)) bridges.push(t);
  }
  const hopSel = await selectTerms(db, filters.owner, [...restTerms, ...bridges]);
  return (await searchBm25(db, hopSel, filters, search)).hits;
}
