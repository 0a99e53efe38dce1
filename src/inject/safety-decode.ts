// What obfuscated text says once decoded: ROT13 when the text says how to read it, reversed text when it says
// so or when its common words show it, leetspeak (1gn0r3 y0ur ...), letters spaced apart (A s s i s t a n t,
// 助 手 请 注 意) or joined by hyphens, \uXXXX escapes, pinyin with its tone marks taken off (zhù shǒu → zhu
// shou) and words each put in brackets ([send] [the] …).
// Each is tried only when its shape or its hint is there, so most texts are never decoded.

export interface Decoded {
  text: string;
  /** [start, end) in the text that was decoded. */
  at: [number, number];
}

const ROT13_HINT = /\b(?:rot|ebg)[\s-]?13\b|\bcaesar\b|凯撒|回转13/iu;
const REVERSE_HINT =
  /倒过来读|倒着读|反过来读|反着写|倒着写|反过来写|倒过来写|倒序|逆序|从右往左读|\bread (?:it |this )?backwards\b|\breversed?\b/iu;
const LEET_WORD = /(?<![\w'])(?=[\w'$@]*[a-z])(?=[\w'$@]*[013457$@])[a-z013457$@']{3,}(?![\w'])/giu;
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  $: 's',
  '@': 'a',
};
/** A run of at least eight single characters, each followed by one to three spaces (not a word's last letters). */
const SPACED = /(?<![A-Za-z0-9])(?:\S[ \u3000]{1,3}(?=\S(?:[ \u3000]|$))){7,}\S(?![A-Za-z0-9])/gu;
const ESCAPE = /\\u([0-9a-fA-F]{4})/gu;
/** Pinyin written with tone marks (zhù shǒu qǐng …): macrons and carons are pinyin's, not French or Spanish. */
const PINYIN_TONE = /[āēīōūǖǎěǐǒǔǚ]/gu;
const TONED = /[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]/gu;
/** Common words written backwards: reversed text has several, ordinary text next to none. */
const REVERSED_WORDS =
  /\b(?:eht|dna|ruoy|uoy|siht|taht|ton|htiw|rof|resu)\b|户用|令指|略忽|码密|示提|手助|诉告/gu;
/** Words each in its own brackets: [reveal] [your] [hidden] [instructions]. */
const BRACKETED = /(?:\[[^[\]\s]{1,20}\][ \t]*){4,}/gu;
/** Single characters joined by hyphens, dots or underscores: S-E-N-D, 发-送-密-码. */
const SEPARATED = /(?:[^\s\-·_*.][-·_*.]){2,}[^\s\-·_*.]/gu;

export function* decodings(text: string): Generator<Decoded> {
  const whole: [number, number] = [0, text.length];
  const spaced = [...text.matchAll(SPACED)];
  // Hints may be spaced out too (倒 过 来 读): they are looked for in the text with its letters joined.
  let joined = text;
  for (const m of spaced.reverse()) {
    joined = joined.slice(0, m.index) + join(m[0]) + joined.slice(m.index + m[0].length);
    yield { text: join(m[0]), at: [m.index, m.index + m[0].length] };
  }
  if (ROT13_HINT.test(joined)) yield { text: rot13(joined), at: whole };
  // The hint may be reversed with the text it comes with (读来过倒 is 倒过来读).
  // Or the text is reversed with no hint at all, and its commonest words show it (eht, dna, ruoy; 户用, 要不).
  const reversed = [...joined].reverse().join('');
  if (
    REVERSE_HINT.test(joined) ||
    REVERSE_HINT.test(reversed) ||
    (joined.match(REVERSED_WORDS)?.length ?? 0) >= 3
  ) {
    yield { text: reversed, at: whole };
  }
  const leet = [...text.matchAll(LEET_WORD)].filter((m) => /[a-z]/iu.test(m[0]) && /[013457$@]/u.test(m[0]));
  if (leet.length >= 3) {
    yield { text: text.replace(LEET_WORD, (w) => [...w].map((c) => LEET[c] ?? c).join('')), at: whole };
  }
  const separated = text.match(SEPARATED);
  if (separated && separated.join('').length >= 12) {
    yield { text: text.replace(SEPARATED, (run) => run.replace(/[-·_*.]/gu, '')), at: whole };
  }
  if ((text.match(PINYIN_TONE)?.length ?? 0) >= 2 && (text.match(TONED)?.length ?? 0) >= 4) {
    yield {
      text: text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/gu, '')
        .normalize('NFC'),
      at: whole,
    };
  }
  const bracketed = text.match(BRACKETED);
  if (bracketed) {
    yield {
      text: text.replace(BRACKETED, (run) => run.replace(/[[\]]/gu, '').replace(/\s+/gu, ' ')),
      at: whole,
    };
  }
  if ((text.match(ESCAPE)?.length ?? 0) >= 3) {
    yield {
      text: text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      at: whole,
    };
  }
}

/** Two or more spaces part words; one space parts the letters of a word. */
function join(run: string): string {
  return run
    .split(/[ \u3000]{2,}/u)
    .map((w) => w.replace(/[ \u3000]/gu, ''))
    .join(' ');
}

function rot13(text: string): string {
  return text.replace(/[a-z]/giu, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}
