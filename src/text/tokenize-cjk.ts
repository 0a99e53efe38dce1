// CJK runs → Intl.Segmenter words plus overlapping character bigrams.

/** Han, kana and Hangul letters; the prolonged sound mark ー is Common script but belongs with kana. */
export const CJK_CLASS = String.raw`[[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30FC]&&[\p{L}\p{N}]]`;

const CJK_START = new RegExp(`^${CJK_CLASS}`, 'v');
const HAN = /\p{sc=Han}/u;
const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });
const WINDOW = 256;

/** Whether a chunk of normalized text is a CJK run (CJK chunks hold nothing else). */
export function isCjkRun(chunk: string): boolean {
  return chunk.charCodeAt(0) >= 0x1100 && CJK_START.test(chunk);
}

/** The tokens of each run, in order: each segmenter word, then the bigrams that start inside it. */
export function tokenizeCjkRuns(runs: readonly string[]): (readonly string[])[] {
  const segmented = segmentRuns(runs.filter((run) => !isSingleCodePoint(run)));
  let k = 0;
  // A lone character is its own word and has no bigram.
  return runs.map((run) => (isSingleCodePoint(run) ? [run] : (segmented[k++] ?? [])));
}

/**
 * Each Han character of `tokens` once, in first-seen order: the single-character field, so that a
 * query word (遛狗) still meets a text that holds only one of its characters (狗).
 */
export function hanCharacters(tokens: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.charCodeAt(0) < 0x2e80) continue;
    for (const ch of token) if (HAN.test(ch)) seen.add(ch);
  }
  return [...seen];
}

interface Piece {
  run: number; // index of its run
  offset: number; // where it starts in the run
  text: string;
}

/** Segmenter words and bigrams of each run (all of two or more code points). */
function segmentRuns(runs: readonly string[]): string[][] {
  const tokens: string[][] = runs.map(() => []);
  const next: number[] = runs.map(() => 0); // where each run's next bigram starts
  for (const batch of batchPieces(runs)) {
    let p = 0; // the piece being segmented
    let start = 0; // its offset in the joined text
    for (const { segment, index, isWordLike } of SEGMENTER.segment(batch.map((x) => x.text).join('\n'))) {
      let piece = batch[p];
      while (piece !== undefined && index >= start + piece.text.length) {
        start += piece.text.length + 1;
        piece = batch[++p];
      }
      if (piece === undefined) break;
      const from = index - start;
      if (from < 0) continue; // the line break between two pieces
      const run = runs[piece.run] ?? '';
      const out = tokens[piece.run] ?? [];
      const at = piece.offset + from;
      const to = piece.offset + Math.min(from + segment.length, piece.text.length);
      const word = isWordLike === true ? run.slice(at, to) : undefined;
      if (word !== undefined) out.push(word);
      next[piece.run] = pushBigrams(run, next[piece.run] ?? 0, to, word === undefined ? -1 : at, word, out);
    }
  }
  runs.forEach((run, k) => pushBigrams(run, next[k] ?? 0, Infinity, -1, undefined, tokens[k] ?? []));
  return tokens;
}

/**
 * Cut runs into pieces of at most WINDOW code units and pack them, one per line, into texts of about
 * WINDOW: each segment() call clones an ICU break iterator, and its cost per word grows with the
 * length of its text. A line break always ends a word, so pieces never merge.
 */
function batchPieces(runs: readonly string[]): Piece[][] {
  const batches: Piece[][] = [];
  let batch: Piece[] = [];
  let size = 0;
  runs.forEach((run, k) => {
    for (let offset = 0; offset < run.length;) {
      let end = Math.min(offset + WINDOW, run.length);
      if (end < run.length && isHighSurrogate(run.charCodeAt(end - 1))) end++;
      if (batch.length > 0 && size + end - offset > WINDOW) {
        batches.push(batch);
        batch = [];
        size = 0;
      }
      batch.push({ run: k, offset, text: run.slice(offset, end) });
      size += end - offset + 1;
      offset = end;
    }
  });
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Push the bigrams that start in [from, until); return where the next one starts. */
function pushBigrams(
  run: string,
  from: number,
  until: number,
  wordStart: number,
  word: string | undefined,
  out: string[],
): number {
  let at = from;
  while (at < until) {
    const second = nextCodePoint(run, at);
    if (second >= run.length) return run.length;
    const bigram = run.slice(at, nextCodePoint(run, second));
    // A two-character word is its own bigram: count it once.
    if (at !== wordStart || bigram !== word) out.push(bigram);
    at = second;
  }
  return at;
}

function isSingleCodePoint(run: string): boolean {
  return run.length === 1 || (run.length === 2 && isHighSurrogate(run.charCodeAt(0)));
}

function nextCodePoint(text: string, at: number): number {
  return at + (isHighSurrogate(text.charCodeAt(at)) ? 2 : 1);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
