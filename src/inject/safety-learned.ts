// The safety gate's learned signal: a linear classifier over hashed character and word n-grams, trained on
// mnemo's own safety corpora (scripts/train-safety-model.ts writes safety-model.bin; the held-out corpora
// are never in its training set). The rules know the forms they were written for; this knows the vocabulary
// of attacks in general, in English and Chinese, so it finds paraphrases no rule names. It is weaker
// evidence than a rule: on its own it only ever quotes a text (safety.ts), never suppresses one.
import { readFileSync } from 'node:fs';
import { normalizeForSafety } from './safety-normalize.js';

/** Feature space: 2^18 hashed buckets. */
export const LEARNED_BITS = 18;
const MASK = (1 << LEARNED_BITS) - 1;
const MAGIC = 'MSM1';
/** Character n-gram lengths (Chinese has no spaces: its words are these), then words and word pairs. */
const CHAR_NGRAMS = [2, 3, 4, 5] as const;
const WORD = /[a-z0-9']+|\p{Script=Han}/gu;
/** Texts longer than this are read in their first part only: the cost stays bounded. */
const MAX_CHARS = 4_000;
/** Shorter texts have too few n-grams to judge ("a tool result"); no corpus attack is this short. */
export const MIN_LEARNED_CHARS = 16;

/** FNV-1a over UTF-16 code units: a feature's kind tag, then its text (`text.slice(from, to)`). */
function bucket(tag: string, text: string, from = 0, to = text.length): number {
  let h = 2166136261;
  for (let i = 0; i < tag.length; i++) {
    h ^= tag.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  for (let i = from; i < to; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0) & MASK;
}

/** The buckets a text has (each once), normalised to unit length: each weighs 1/sqrt(count). */
export function learnedFeatures(text: string): { buckets: number[]; value: number } {
  const t = normalizeForSafety(text.slice(0, MAX_CHARS)).text.toLowerCase().replace(/\s+/gu, ' ');
  const seen = new Set<number>();
  for (const n of CHAR_NGRAMS) {
    const tag = `c${n}`;
    for (let i = 0; i + n <= t.length; i++) seen.add(bucket(tag, t, i, i + n));
  }
  const words = t.match(WORD) ?? [];
  for (let i = 0; i < words.length; i++) {
    seen.add(bucket('w', words[i] ?? ''));
    if (i + 1 < words.length) seen.add(bucket('b', `${words[i]} ${words[i + 1]}`));
  }
  const buckets = [...seen];
  return { buckets, value: buckets.length > 0 ? 1 / Math.sqrt(buckets.length) : 0 };
}

export interface LearnedModel {
  bias: number;
  weights: Float64Array;
}

/**
 * The model's file: "MSM1", the feature bits (uint8), the bias and the largest weight (float32 LE), then one
 * int8 per bucket holding sign(w)·round(127·sqrt(|w|/max)) — the square root keeps small weights.
 */
export function encodeModel(model: LearnedModel): Buffer {
  let max = 0;
  for (const w of model.weights) max = Math.max(max, Math.abs(w));
  const out = Buffer.alloc(4 + 1 + 8 + model.weights.length);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt8(LEARNED_BITS, 4);
  out.writeFloatLE(model.bias, 5);
  out.writeFloatLE(max, 9);
  for (let k = 0; k < model.weights.length; k++) {
    const w = model.weights[k] ?? 0;
    out.writeInt8(max > 0 ? Math.sign(w) * Math.round(127 * Math.sqrt(Math.abs(w) / max)) : 0, 13 + k);
  }
  return out;
}

export function decodeModel(file: Buffer): LearnedModel {
  if (file.toString('latin1', 0, 4) !== MAGIC || file.readUInt8(4) !== LEARNED_BITS) {
    throw new Error('safety-model.bin is not a model of this version');
  }
  const bias = file.readFloatLE(5);
  const max = file.readFloatLE(9);
  const weights = new Float64Array(1 << LEARNED_BITS);
  for (let k = 0; k < weights.length; k++) {
    const q = file.readInt8(13 + k);
    weights[k] = Math.sign(q) * (q / 127) ** 2 * max;
  }
  return { bias, weights };
}

export const MODEL_FILE = new URL('./safety-model.bin', import.meta.url);
let loaded: LearnedModel | null = null;

/** The probability, 0–1, that the text is a planted instruction, by the committed model. */
export function learnedScore(
  text: string,
  model: LearnedModel = (loaded ??= decodeModel(readFileSync(MODEL_FILE))),
): number {
  if (text.trim().length < MIN_LEARNED_CHARS) return 0;
  const { buckets, value } = learnedFeatures(text);
  let z = model.bias;
  for (const k of buckets) z += (model.weights[k] ?? 0) * value;
  return 1 / (1 + Math.exp(-z));
}
