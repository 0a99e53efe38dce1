// The one tokenizer for indexing and queries: NFKC + lower case; Latin words lightly stemmed;
// identifiers kept whole and split; CJK runs as segmenter words plus overlapping character bigrams.

import { mayStem, stemEnglish } from './stem.js';
import { CJK_CLASS, isCjkRun, tokenizeCjkRuns } from './tokenize-cjk.js';

export { isStopWord } from './stopwords.js';
export { hanCharacters } from './tokenize-cjk.js';

/** Bump whenever tokenize() output can change for some input: indexed token rows must then be rebuilt. */
export const TOKENIZER_VERSION = 2;

export const MAX_TOKEN_LENGTH = 64;

// What the index's FTS5 tokenizer keeps as one token, unchanged: `unicode61 remove_diacritics 0
// categories 'L* N* Co M*' tokenchars '-_.'` (storage/migrations).
const FTS_TOKEN = /^[\p{L}\p{N}\p{M}\p{Co}][\p{L}\p{N}\p{M}\p{Co}\-_.]*$/u;

const WORD = String.raw`[[\p{L}\p{N}\p{M}\p{Co}]--${CJK_CLASS}]`;
// A piece starts with a letter or digit (a stray combining mark cannot start a token); an apostrophe
// between letters stays inside it (don't, user's) and is removed later.
const PIECE = String.raw`[${WORD}--\p{M}]${WORD}*(?:['\u2019]${WORD}+)*`;
// A chunk is a CJK run, or pieces joined by underscores and at most one `-` or `.` (`__init__.py`);
// `...` and `--` separate.
const CHUNK = new RegExp(String.raw`${CJK_CLASS}+|${PIECE}(?:(?:_*[\-.]_*|_+)${PIECE})*`, 'gv');
const JOINER = /_*[-.]_*|_+/;

const ASCII = /^\p{ASCII}*$/u;
// Variation selectors, the keycap mark and soft hyphens only decorate: drop them before matching.
const DECORATION = /\u00ad|\u20e3|[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]/gu;
const FINAL_SIGMA = /ς/g;
const LATIN_WORD = /^[a-z]+$/;
const APOSTROPHE = /['\u2019]/;
const APOSTROPHES = /['\u2019]/g;
const CLITICS: ReadonlySet<string> = new Set(['s', 'd', 'll', 'm', 're', 've']);
const DIGIT = /\p{N}/u;
const DIGIT_OR_OTHER_RUN = /\p{N}+|\P{N}+/gu;

const STEM_CACHE_SIZE = 50_000;
const stemCache = new Map<string, string>();

/** All index tokens of `text`, in order, with repeats. Stop words are kept. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const chunks = normalize(text).match(CHUNK);
  if (chunks === null) return out;
  const runs = chunks.filter(isCjkRun);
  const cjkTokens = runs.length > 0 ? tokenizeCjkRuns(runs) : [];
  let k = 0;
  for (const chunk of chunks) {
    if (runs.length === 0 || !isCjkRun(chunk)) pushChunk(chunk, out);
    else for (const token of cjkTokens[k++] ?? []) if (token.length <= MAX_TOKEN_LENGTH) out.push(token);
  }
  return out;
}

/** The distinct tokens of a query, in first-seen order: the same pipeline as tokenize(). */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}

function normalize(text: string): string {
  // ASCII is already NFKC; skip the ICU call for it.
  if (ASCII.test(text)) return text.toLowerCase();
  // FTS5 folds the final sigma to σ; fold it first so tokens pass through unchanged.
  return text.normalize('NFKC').replace(DECORATION, '').toLowerCase().replace(FINAL_SIGMA, 'σ');
}

function pushChunk(chunk: string, out: string[]): void {
  if (LATIN_WORD.test(chunk)) {
    pushWord(chunk, out);
    return;
  }
  const word = APOSTROPHE.test(chunk) ? dropApostrophes(chunk) : chunk;
  const parts = word.split(JOINER);
  // An identifier (rb-2026-0917, invoice_2026-09.pdf, v1.2.3, well-known) is kept whole too.
  if (parts.length > 1) pushToken(word, out);
  for (const part of parts) pushPart(part, out);
}

function pushPart(part: string, out: string[]): void {
  if (LATIN_WORD.test(part)) {
    pushWord(part, out);
    return;
  }
  pushToken(part, out);
  // Letters and digits in one part (t042, 3pm, gpt4o) are split as well: t, 042.
  if (!DIGIT.test(part)) return;
  const runs = part.match(DIGIT_OR_OTHER_RUN);
  if (runs === null || runs.length < 2) return;
  for (const run of runs) {
    if (LATIN_WORD.test(run)) pushWord(run, out);
    else pushToken(run, out);
  }
}

/** Cut a final clitic ('s 'd 'll 'm 're 've), then join what is left: user's → user, don't → dont. */
function dropApostrophes(chunk: string): string {
  const last = Math.max(chunk.lastIndexOf("'"), chunk.lastIndexOf('\u2019'));
  const base = CLITICS.has(chunk.slice(last + 1)) ? chunk.slice(0, last) : chunk;
  return base.replace(APOSTROPHES, '');
}

// invariant: every token is 1–64 chars and matches FTS_TOKEN (test: "every token survives FTS5 unicode61").
function pushToken(token: string, out: string[]): void {
  if (token.length > 0 && token.length <= MAX_TOKEN_LENGTH && FTS_TOKEN.test(token)) out.push(token);
}

/** Push a lower-case ASCII word, stemmed. */
function pushWord(word: string, out: string[]): void {
  if (word.length <= MAX_TOKEN_LENGTH) out.push(mayStem(word) ? stem(word) : word);
}

function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = stemEnglish(word);
    if (stemCache.size >= STEM_CACHE_SIZE) stemCache.clear();
    stemCache.set(word, stemmed);
  }
  return stemmed;
}
