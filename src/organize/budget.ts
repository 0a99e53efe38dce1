// Fitting text into two budgets at once: tokens (by the configured counter) and UTF-8 bytes, measured apart.
import type { TokenCounter } from '../text/tokens.js';

export interface Cost {
  tokens: number;
  bytes: number;
}

export const costOf = (counter: TokenCounter, text: string): Cost => ({
  tokens: counter.count(text),
  bytes: Buffer.byteLength(text, 'utf8'),
});

export const addCost = (a: Cost, b: Cost): Cost => ({
  tokens: a.tokens + b.tokens,
  bytes: a.bytes + b.bytes,
});
export const fitsIn = (cost: Cost, room: Cost): boolean =>
  cost.tokens <= room.tokens && cost.bytes <= room.bytes;
export const roomLeft = (budget: Cost, used: Cost): Cost => ({
  tokens: budget.tokens - used.tokens,
  bytes: budget.bytes - used.bytes,
});

export const CUT_MARK = '…[truncated]';

/**
 * `head + CUT_MARK` for the longest head of `body` (whole code points) whose `render(…)` fits `room`, or
 * null when not even the mark alone fits.
 */
export function cutToFit(
  counter: TokenCounter,
  body: string,
  render: (text: string) => string,
  room: Cost,
): string | null {
  const chars = [...body];
  const fits = (n: number) => fitsIn(costOf(counter, render(chars.slice(0, n).join('') + CUT_MARK)), room);
  if (!fits(0)) return null;
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('') + CUT_MARK;
}
