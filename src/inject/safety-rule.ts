// What a safety rule is: a signal code, a weight and a way to find its spans in normalised text.
import type { SafetyReasonCode } from './safety-schema.js';

export type SignalCode = Exclude<
  SafetyReasonCode,
  'reported' | 'code' | 'example' | 'elsewhere' | 'own_words' | 'learned'
>;

export interface SafetyRule {
  code: SignalCode;
  /** How much one match says about an untrusted text, 0–1 (see the trust factors in safety.ts). */
  weight: number;
  find(text: string): Iterable<[number, number]>;
  /** Written to find text inside code (a comment addressed to an AI): code framing does not lower it. */
  inCode?: boolean;
  /** An override whose object is the model's own by construction ("…and your original guidelines"). */
  atModel?: boolean;
}

/** A rule matching one pattern (case-insensitive, Unicode); every quantifier in it is bounded or disjoint. */
export function rule(code: SignalCode, weight: number, source: string, flags = 'iu'): SafetyRule {
  const pattern = new RegExp(source, flags.includes('g') ? flags : flags + 'g');
  return {
    code,
    weight,
    *find(text) {
      for (const m of text.matchAll(pattern)) yield [m.index, m.index + m[0].length];
    },
  };
}

/** A rule that needs every part in one sentence (a verb, what is sent, where to): its span is the sentence. */
export function sentenceRule(code: SignalCode, weight: number, parts: string[]): SafetyRule {
  const patterns = parts.map((p) => new RegExp(p, 'iu'));
  return {
    code,
    weight,
    *find(text) {
      for (const [start, end] of sentences(text)) {
        const s = text.slice(start, end);
        if (patterns.every((p) => p.test(s))) yield [start, end];
      }
    },
  };
}

/** Sentence spans: cut at 。！？!?;； and line breaks, and at a full stop followed by a space. */
export function sentences(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    const end =
      i === text.length || '。！？!?;；\n'.includes(c ?? '') || (c === '.' && /\s/.test(text[i + 1] ?? ' '));
    if (!end) continue;
    if (i > start) out.push([start, i]);
    start = i + 1;
  }
  return out;
}

/** Alternatives for a pattern: `alt('a', 'b c')` is `(?:a|b c)`. */
export const alt = (...words: string[]): string => `(?:${words.join('|')})`;
