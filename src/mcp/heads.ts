// Short heads for MCP results: a text flattened and cut to about 48 tokens (~160 Latin characters, ~48
// Chinese ones), so that a recall costs tens of tokens per item; the full text is one `get` away.
import { CJK } from '../llm/tokens.js';

export const HEAD_TOKENS = 48;

/** The text on one line, cut at about maxTokens estimated tokens (1 a CJK character, 0.3 any other). */
export function cutHead(text: string, maxTokens = HEAD_TOKENS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  let tokens = 0;
  let end = 0;
  for (const ch of flat) {
    tokens += CJK.test(ch) ? 1 : 0.3;
    if (tokens > maxTokens) return `${flat.slice(0, end).trimEnd()}…`;
    end += ch.length;
  }
  return flat;
}

/** `2026-09-01 09:00Z`: minutes are enough to place an item in time. */
export const shortTime = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')}Z`;
