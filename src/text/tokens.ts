// Token counts for budgets. One portable estimate everywhere (no tokenizer, the same on every machine and in
// every stage): 1 token per CJK character, 0.3 per other character, rounded up. CJK is counted honestly:
// current tokenizers spend about one token per Han, kana or Hangul character and per full-width punctuation
// mark (，。：“”…), so counting those at a Latin rate would overrun a budget several times over. Measured
// against exact o200k_base counts in docs/BENCHMARKS.md. `MNEMO_TOKENIZER=exact` counts with gpt-tokenizer
// instead (an optional dependency, loaded only then).

/** Han, kana and Hangul characters. */
export const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;
/** What the estimate counts as one token: CJK characters, CJK and full-width punctuation, the marks Chinese text uses. */
const ONE_TOKEN =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u3000-\u303f\uff00-\uffef\u2014\u2026\u2018\u2019\u201c\u201d\u00b7]/u;

/** The estimate's cost of one character (a code point). */
export const charTokens = (ch: string): number => (ONE_TOKEN.test(ch) ? 1 : 0.3);

/** The name the estimate goes by wherever a count is reported. */
export const PORTABLE_TOKENIZER = 'portable-v1';

export function estimateTokens(text: string): number {
  let wide = 0;
  let other = 0;
  for (const ch of text) {
    if (ONE_TOKEN.test(ch)) wide++;
    else other++;
  }
  return Math.ceil(wide + other * 0.3);
}

export interface TokenCounter {
  /** `portable-v1`, or the exact encoding's name. */
  readonly name: string;
  count(text: string): number;
}

export const portableCounter: TokenCounter = Object.freeze({
  name: PORTABLE_TOKENIZER,
  count: estimateTokens,
});

export type TokenizerKind = 'estimate' | 'exact';

interface ExactModule {
  encode(text: string, options: { disallowedSpecial: Set<string> }): number[];
}

const isExactModule = (value: unknown): value is ExactModule =>
  typeof value === 'object' && value !== null && typeof (value as ExactModule).encode === 'function';

let exact: Promise<TokenCounter> | undefined;

/**
 * The counter for `kind`. `exact` loads gpt-tokenizer (o200k_base) once; text that looks like a special
 * token (`<|endoftext|>`) is counted as text. Throws when the optional package is not installed.
 */
export function loadTokenCounter(kind: TokenizerKind = 'estimate'): Promise<TokenCounter> {
  if (kind === 'estimate') return Promise.resolve(portableCounter);
  exact ??= (async () => {
    const specifier = 'gpt-tokenizer';
    const loaded: unknown = await import(specifier);
    if (!isExactModule(loaded)) throw new Error('gpt-tokenizer has no encode()');
    const options = { disallowedSpecial: new Set<string>() };
    return Object.freeze({
      name: 'o200k_base',
      count: (text: string) => loaded.encode(text, options).length,
    });
  })();
  exact.catch(() => (exact = undefined));
  return exact;
}
