// Normal forms that decide duplicates and aliases: the same name written with other case, width, spaces or
// punctuation is the same name; a short name (老李) stays its own alias, never folded into another.

const PUNCT = /[\p{P}\p{S}\s]+/gu;

/** A name as duplicates and aliases compare it: NFKC, lower case, no spaces or punctuation. */
export function normName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(PUNCT, '');
}

/** A text as duplicates compare it: NFKC, lower case, runs of spaces and punctuation as one space. */
export function normText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(PUNCT, ' ').trim();
}
