// Runs time-expression rules over a query: each match becomes a span and is blanked out for the next rule.
import type { Span } from './calendar.js';

export interface Found {
  span: Span;
  /** The words that named it. */
  phrase: string;
}

export type TimeRule = [RegExp, (m: RegExpExecArray, at: number) => Span | undefined];

export function consume(text: string, rules: readonly TimeRule[], at: number): Found[] {
  const found: Found[] = [];
  let rest = text;
  for (const [pattern, toSpan] of rules) {
    pattern.lastIndex = 0;
    let blanked = rest;
    for (let m = pattern.exec(rest); m !== null; m = pattern.exec(rest)) {
      const span = toSpan(m, at);
      if (span && span.from <= span.to) {
        found.push({ span, phrase: m[0] });
        blanked = blanked.slice(0, m.index) + ' '.repeat(m[0].length) + blanked.slice(m.index + m[0].length);
      }
      if (m[0].length === 0) pattern.lastIndex++;
    }
    rest = blanked;
  }
  return found;
}
