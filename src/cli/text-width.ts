// Terminal width of text: East Asian wide and fullwidth characters take two columns, combining marks none;
// and tables cut to fit a width (default 100 columns).
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
const ZERO = /[\p{Mn}\p{Me}\p{Cf}\p{Cc}]/u;

export function charWidth(ch: string): number {
  if (ZERO.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

export const textWidth = (text: string): number => [...text].reduce((w, ch) => w + charWidth(ch), 0);

/** `text` cut to at most `width` columns (an ellipsis marks the cut), padded with spaces to `width`. */
export function fit(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  let out = '';
  let used = 0;
  const chars = [...flat];
  const total = textWidth(flat);
  const room = total > width ? width - 1 : width;
  for (const ch of chars) {
    const w = charWidth(ch);
    if (used + w > room) break;
    out += ch;
    used += w;
  }
  if (total > width) {
    out += '…';
    used += 1;
  }
  return out + ' '.repeat(Math.max(0, width - used));
}

/**
 * Columns as wide as their widest cell (at most 30 but for the last); while a line would not fit
 * `maxWidth`, the widest column gives up a column.
 * invariant: no line of a table is wider than maxWidth columns, CJK counted as two (test:
 * src/cli/text-width.test.ts).
 */
export function renderTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  maxWidth = 100,
): string {
  const widths = header.map((h, i) => {
    const widest = Math.max(textWidth(h), ...rows.map((r) => textWidth(r[i] ?? '')));
    return i === header.length - 1 ? widest : Math.min(widest, 30);
  });
  const gaps = 2 * (header.length - 1);
  for (;;) {
    const total = widths.reduce((a, b) => a + b, 0) + gaps;
    if (total <= maxWidth) break;
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 4) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => fit(c, widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
