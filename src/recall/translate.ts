// Cross-lingual lookup: an English query's words and phrases add their Chinese translations, a Chinese query's
// words their English ones, as extra terms at a lower weight; identifiers, numbers and names the dictionary
// lacks are never translated (they stay the query's own terms, unchanged).
import { hanCharacters, isStopWord, tokenize } from '../text/tokenize.js';
import type { Dictionary } from './dictionary.js';

export interface TranslateOptions {
  /** Translations taken per English word or phrase, and offered per Chinese word. */
  perEnglish: number;
  perChinese: number;
}

// A Chinese word offers the English terms of its first senses; the ranking keeps those the owner's documents
// hold (酒店: wine, shop, pub, hotel — an owner's log says "hotel").
export const TRANSLATE: TranslateOptions = { perEnglish: 4, perChinese: 8 };

/** A translated term and the query term (or phrase) it translates. */
export interface Translation {
  term: string;
  source: string;
}

const LATIN_WORD = /^[a-z]{2,}$/;
const HAN_WORD = /^\p{sc=Han}{2,6}$/u;

/**
 * Terms in the other language for the query, in query order, none a term of the query already: the Chinese
 * words (and their characters) of its English words and of its two- and three-word English phrases, and the
 * English terms of its Chinese words (a bigram that is no word finds no entry). Ids and numbers are left alone.
 */
export function translateQuery(
  text: string,
  terms: readonly string[],
  dictionary: Dictionary,
  options: TranslateOptions = TRANSLATE,
): Translation[] {
  const own = new Set(terms);
  const out = new Map<string, Translation>();
  const add = (term: string, source: string) => {
    if (!own.has(term) && !isStopWord(term) && !out.has(term)) out.set(term, { term, source });
  };
  const addChinese = (words: readonly string[], source: string) => {
    for (const word of words.slice(0, options.perEnglish)) add(word, source);
    for (const ch of hanCharacters(words.slice(0, options.perEnglish))) add(ch, source);
  };
  // Phrases first: "send back" is 退回, not 发送 + 后背.
  const sequence = tokenize(text);
  for (let i = 0; i < sequence.length; i++) {
    for (const n of [3, 2]) {
      const words = sequence.slice(i, i + n);
      if (words.length < n || !words.every((w) => LATIN_WORD.test(w))) continue;
      if (words.every(isStopWord)) continue;
      const phrase = words.join(' ');
      addChinese(dictionary.chinese(phrase), phrase);
    }
  }
  for (const term of terms) {
    if (isStopWord(term)) continue;
    if (LATIN_WORD.test(term) && term.length >= 3) addChinese(dictionary.chinese(term), term);
    else if (HAN_WORD.test(term))
      // "p.m." is no English word to look for: terms of three letters or more.
      for (const word of dictionary
        .english(term)
        .filter((w) => w.length >= 3)
        .slice(0, options.perChinese))
        add(word, term);
  }
  return [...out.values()];
}
