// Statements are written with `?` placeholders; PostgreSQL numbers them ($1, $2, …). A `?` inside a quoted
// literal or identifier is left alone.

const cache = new Map<string, string>();

export function numberPlaceholders(sql: string): string {
  const known = cache.get(sql);
  if (known !== undefined) return known;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else out += ch === '?' ? `$${++n}` : ch;
  }
  if (cache.size > 2000) cache.clear();
  cache.set(sql, out);
  return out;
}
