// A packet's digests, model-free: an item's exact digest (sha256 of its normal form) and its semantic digest
// (a 64-bit simhash of its index terms, so restated text with a word changed lands a few bits away).
import { createHash } from 'node:crypto';
import { normText } from '../knowledge/knowledge.js';
import { isStopWord, queryTerms } from '../text/tokenize.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const MASK = (1n << 64n) - 1n;

export const exactDigest = (text: string): string => sha256(normText(text).replace(/\s+/gu, ' '));

/** 64-bit simhash of the distinct non-stop terms, as 16 hex digits. */
export function semanticDigest(text: string): string {
  const terms = queryTerms(text).filter((t) => !isStopWord(t));
  const counts = new Array<number>(64).fill(0);
  for (const term of terms) {
    const h = BigInt(`0x${sha256(term).slice(0, 16)}`);
    for (let bit = 0; bit < 64; bit++) counts[bit] = (counts[bit] ?? 0) + ((h >> BigInt(bit)) & 1n ? 1 : -1);
  }
  let out = 0n;
  for (let bit = 0; bit < 64; bit++) if ((counts[bit] ?? 0) > 0) out |= 1n << BigInt(bit);
  return (out & MASK).toString(16).padStart(16, '0');
}

/** Bits in which two semantic digests differ. */
export function distance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x > 0n) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

/** A packet's digests: over its items' digests in order. */
export const packetDigests = (items: ReadonlyArray<{ exact_digest: string; semantic_digest: string }>) => ({
  exact: sha256(items.map((i) => i.exact_digest).join('\n')),
  semantic: sha256(items.map((i) => i.semantic_digest).join('\n')),
});
