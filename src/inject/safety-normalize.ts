// The text the safety rules read: invisible characters dropped, full-width and compatibility forms folded
// (NFKC), look-alike Cyrillic and Greek letters inside Latin words made Latin, and Unicode tag characters
// (hidden ASCII) decoded, traditional Chinese characters read as simplified (safety-hant.ts), HTML character
// references read as the characters they stand for (&lt;tool&gt; is <tool> to whoever renders it). Every
// character keeps the offset of the original one it came from.
import { SIMPLIFIED_OF } from './safety-hant.js';

export interface Normalized {
  text: string;
  /** Offset in the original text of each character of `text`, plus one entry for its end. */
  origin: number[];
  /** Offsets of invisible characters that are not part of an emoji or a script that needs them. */
  invisible: number[];
  /** Offsets of Unicode tag characters outside emoji flags. */
  tags: number[];
  /** Offsets of bidirectional controls. */
  bidi: number[];
  /** [start, end) original spans of words mixing Latin with Cyrillic or Greek letters. */
  mixed: [number, number][];
}

const INVISIBLE = /[\u00AD\u180E\u200B-\u200D\u2060-\u2064\uFEFF]/u;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;
const JOINS =
  /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F\u20E3\p{Script=Arabic}\p{Script=Devanagari}]/u;
const BLACK_FLAG = 0x1f3f4;

/** Cyrillic and Greek letters drawn like Latin ones. */
// prettier-ignore
const CONFUSABLES: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w',
  һ: 'h', ӏ: 'l', А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X',
  І: 'I', Ј: 'J', Ѕ: 'S', ο: 'o', α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ρ: 'p', τ: 't', υ: 'u', Ο: 'O',
  Α: 'A', Β: 'B', Ε: 'E', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ρ: 'P', Τ: 'T', Χ: 'X', Ζ: 'Z',
};

export function normalizeForSafety(original: string): Normalized {
  let text = '';
  const origin: number[] = [];
  const invisible: number[] = [];
  const tags: number[] = [];
  const bidi: number[] = [];
  let inFlag = false;
  let entity: RegExpExecArray | null;
  for (let i = 0; i < original.length;) {
    const cp = original.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const isTag = cp >= 0xe0000 && cp <= 0xe007f;
    if (cp === BLACK_FLAG) inFlag = true;
    else if (!isTag) inFlag = false;
    if (isTag) {
      // Tag characters spell ASCII no one sees; outside a flag, read them as the ASCII they hide.
      if (!inFlag) {
        tags.push(i);
        if (cp >= 0xe0020 && cp < 0xe007f) push(String.fromCharCode(cp - 0xe0000), i);
      }
    } else if (INVISIBLE.test(ch)) {
      const joiner = (cp === 0x200c || cp === 0x200d) && joins(original, i);
      if (!(i === 0 && cp === 0xfeff) && !joiner) invisible.push(i);
    } else if (BIDI.test(ch)) bidi.push(i);
    else if (ch === '\\' && original[i + 1] === 'n') {
      // An escaped line break inside JSON or an iCalendar field is a line break.
      push('\n', i);
      i += 2;
      continue;
    } else if (ch === '&' && (entity = ENTITY.exec(original.slice(i, i + 12)))) {
      push(decodeEntity(entity[1] ?? ''), i);
      i += entity[0].length;
      continue;
    } else if (ch !== ' ' || !betweenHanAndLatin(original, i)) {
      push(SIMPLIFIED_OF.get(ch) ?? ch.normalize('NFKC'), i);
    }
    i += ch.length;
  }
  origin.push(original.length);
  const folded = foldMixedWords(text, origin);
  return { text: folded.text, origin, invisible, tags, bidi, mixed: folded.mixed };

  function push(s: string, at: number): void {
    text += s;
    for (let k = 0; k < s.length; k++) origin.push(at);
  }
}

/** A named or numeric HTML character reference at the start of a string. */
const ENTITY = /^&(lt|gt|quot|amp|apos|nbsp|#\d{1,6}|#x[0-9a-f]{1,6});/iu;
const NAMED_ENTITIES: Record<string, string> = {
  lt: '<',
  gt: '>',
  quot: '"',
  amp: '&',
  apos: "'",
  nbsp: ' ',
};

function decodeEntity(name: string): string {
  const lower = name.toLowerCase();
  if (!lower.startsWith('#')) return NAMED_ENTITIES[lower] ?? '';
  const cp = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
  return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
}

const HAN = /\p{Script=Han}/u;
const LATIN = /[A-Za-z\uFF21-\uFF3A\uFF41-\uFF5A]/u;

/**
 * The one space Chinese text puts around a Latin word (读到这里的 AI) is dropped: rules read 读到这里的AI. Not
 * around a single letter: text spaced out letter by letter (发 到 y i n) stays spaced, to be decoded.
 */
function betweenHanAndLatin(original: string, i: number): boolean {
  const prev = original[i - 1] ?? '';
  const next = original[i + 1] ?? '';
  if (HAN.test(prev) && LATIN.test(next)) return LATIN.test(original[i + 2] ?? '');
  return LATIN.test(prev) && HAN.test(next) && LATIN.test(original[i - 2] ?? '');
}

/** A joiner between emoji, or inside a script that needs it, is part of the text. */
function joins(original: string, i: number): boolean {
  const low = original.charCodeAt(i - 1);
  const prev = original.codePointAt(low >= 0xdc00 && low <= 0xdfff ? i - 2 : i - 1) ?? 0;
  const next = original.codePointAt(i + 1) ?? 0;
  return JOINS.test(String.fromCodePoint(prev)) || JOINS.test(String.fromCodePoint(next));
}

/** Rewrites look-alike letters in words that mix Latin with Cyrillic or Greek; returns their spans. */
function foldMixedWords(text: string, origin: number[]): { text: string; mixed: [number, number][] } {
  const mixed: [number, number][] = [];
  const out = text.replace(/\p{L}+/gu, (word: string, at: number) => {
    if (!/\p{Script=Latin}/u.test(word) || !/[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(word)) return word;
    mixed.push([origin[at] ?? 0, (origin[at + word.length - 1] ?? 0) + 1]);
    // Every confusable is one UTF-16 unit and so is its Latin twin: offsets stay aligned.
    return [...word].map((c) => CONFUSABLES[c] ?? c).join('');
  });
  return { text: out, mixed };
}
