// Shared scanning loop for the redaction rules.

/**
 * Calls `visit` for every match of a global `pattern`. Faster than `matchAll`, which clones the RegExp on each
 * call; safe to share one RegExp because scanning is synchronous.
 */
export function eachMatch(pattern: RegExp, text: string, visit: (match: RegExpExecArray) => void): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) pattern.lastIndex++;
    visit(match);
  }
}
