// Light English stemming: the inflectional steps of Porter2 (Snowball English), nothing derivational.
//
// Steps 1a, 1b, 1c and 5 fold plurals, -ed, -ing, -edly, -ingly, a final y/e and -ll, so that
// meetings/meeting and invoices/invoiced/invoice each meet on one stem (meet, invoic). Steps 2–4
// (-ational, -ness, -ment, …) are left out on purpose: they merge unrelated words (organization →
// organ). Step 0, apostrophes, is the tokenizer's.

const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);

// Porter2 keeps these after step 1a; `evening` is ours, so it does not become `even`.
const INVARIANT_AFTER_1A: ReadonlySet<string> = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'proceed',
  'exceed',
  'succeed',
  'evening',
]);

const DOUBLES: ReadonlySet<string> = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);

const R1_PREFIXES = ['gener', 'commun', 'arsen'];

/** A y at the start or right after a vowel is a consonant: write it `Y`. */
function markConsonantY(word: string): string {
  if (!word.includes('y')) return word;
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i] ?? '';
    out += c === 'y' && (i === 0 || isVowel(out[i - 1])) ? 'Y' : c;
  }
  return out;
}

// `Y` marks a consonant y (word-initial or after a vowel); it is not a vowel.
function isVowel(c: string | undefined): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || c === 'y';
}

/** Index just past the first non-vowel that follows a vowel, searching from `from`. */
function regionStart(w: string, from: number): number {
  for (let i = from + 1; i < w.length; i++) {
    if (!isVowel(w[i]) && isVowel(w[i - 1])) return i + 1;
  }
  return w.length;
}

function endsWithShortSyllable(w: string): boolean {
  const n = w.length;
  if (n === 2) return isVowel(w[0]) && !isVowel(w[1]);
  if (n < 3) return false;
  const last = w[n - 1];
  return (
    !isVowel(w[n - 3]) && isVowel(w[n - 2]) && !isVowel(last) && last !== 'w' && last !== 'x' && last !== 'Y'
  );
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(w[i])) return true;
  return false;
}

function step1a(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ied') || w.endsWith('ies')) return w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  if (w.endsWith('us') || w.endsWith('ss')) return w;
  // `s` goes only if a vowel occurs before the letter preceding it: gaps → gap, gas stays.
  if (w.endsWith('s') && hasVowel(w, w.length - 2)) return w.slice(0, -1);
  return w;
}

function step1b(w: string, r1: number): string {
  if (w.endsWith('eedly') || w.endsWith('eed')) {
    const suffix = w.endsWith('eedly') ? 5 : 3;
    return w.length - suffix >= r1 ? w.slice(0, w.length - suffix + 2) : w;
  }
  const suffix = ['ingly', 'edly', 'ing', 'ed'].find((s) => w.endsWith(s));
  if (suffix === undefined) return w;
  const stem = w.slice(0, -suffix.length);
  if (!hasVowel(stem, stem.length)) return w;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return stem + 'e';
  if (DOUBLES.has(stem.slice(-2))) return stem.slice(0, -1);
  if (endsWithShortSyllable(stem) && r1 >= stem.length) return stem + 'e';
  return stem;
}

function step1c(w: string): string {
  const n = w.length;
  const last = w[n - 1];
  if ((last === 'y' || last === 'Y') && n > 2 && !isVowel(w[n - 2])) return w.slice(0, -1) + 'i';
  return w;
}

function step5(w: string, r1: number, r2: number): string {
  const n = w.length;
  if (w.endsWith('e')) {
    if (n - 1 >= r2 || (n - 1 >= r1 && !endsWithShortSyllable(w.slice(0, -1)))) return w.slice(0, -1);
    return w;
  }
  if (w.endsWith('ll') && n - 1 >= r2) return w.slice(0, -1);
  return w;
}

/** False when stemEnglish() surely returns `word` unchanged: it only rewrites endings s, d, g, y, e, l. */
export function mayStem(word: string): boolean {
  if (word.length <= 2) return false;
  const last = word[word.length - 1];
  return last === 's' || last === 'd' || last === 'g' || last === 'y' || last === 'e' || last === 'l';
}

/**
 * Stem one lower-case ASCII word (`[a-z]+`); anything else comes back unchanged.
 * Deterministic and dictionary-free, so an index and its queries always agree.
 */
export function stemEnglish(word: string): string {
  if (!mayStem(word) || !/^[a-z]+$/.test(word)) return word;
  const exception = EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;

  let w = markConsonantY(word);
  const prefix = R1_PREFIXES.find((p) => w.startsWith(p));
  const r1 = prefix !== undefined ? prefix.length : regionStart(w, 0);
  const r2 = regionStart(w, r1);

  w = step1a(w);
  if (INVARIANT_AFTER_1A.has(w)) return w;
  w = step1b(w, r1);
  w = step1c(w);
  w = step5(w, r1, r2);
  return w.replace(/Y/g, 'y');
}
