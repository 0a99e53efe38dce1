// The extractive summarizer, used without a model: one line per piece (its first sentence, clipped), repeated
// lines counted once, every line cut to an even share of the node's token budget; no words are invented.
import { charTokens, estimateTokens } from '../text/tokens.js';
import type { Piece } from './schema-jobs.js';

export const EXTRACTIVE = 'extractive-v1';
/** Lines are never cut below this share; beyond it every other line is left out instead. */
const MIN_LINE_TOKENS = 12;

/** The longest prefix of `text` within `tokens` (portable estimate), with `…` when cut. */
export function clipTokens(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  let used = 0;
  let out = '';
  for (const ch of text) {
    const cost = charTokens(ch);
    if (Math.ceil(used + cost) > tokens - 1) break;
    used += cost;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

/** The first sentence (or line) of a text, whitespace collapsed. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = /[。！？!?]|[.;](\s|$)/.exec(flat);
  return end ? flat.slice(0, end.index + 1) : flat;
}

const lineOf = (piece: Piece): string[] =>
  piece.type === 'event'
    ? [`${piece.role ?? 'event'}: ${firstSentence(piece.text)}`]
    : piece.text.split('\n').filter((l) => l.trim() !== '');

/** Identical lines once, with their count. */
function collapse(lines: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}

export function summarizeExtractively(pieces: readonly Piece[], nodeTokens: number): string {
  let lines = collapse(pieces.flatMap(lineOf));
  while (lines.length > 1 && nodeTokens / lines.length < MIN_LINE_TOKENS) {
    lines = lines.filter((_, i) => i % 2 === 0);
  }
  const share = Math.max(MIN_LINE_TOKENS, Math.floor(nodeTokens / Math.max(1, lines.length)));
  const text = lines.map((line) => clipTokens(line, share)).join('\n');
  return text.trim() === '' ? '(empty)' : text;
}
