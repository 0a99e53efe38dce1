// Chinese query understanding: question words, particles, pronouns and demonstratives are blanked out whole
// before the query is tokenized, so no term, bigram or single character is ever made from a piece of them.
import { isStopWord } from '../text/tokenize.js';

// Question words and request scaffolding, longest first where one holds another.
const QUESTION_WORDS = `
为什么 是不是 有没有 能不能 会不会 要不要 可不可以 对不对 好不好 行不行 怎么样 怎么办
什么 为啥 干嘛 怎么 怎样 如何 多少 多久 多长 多大 多远 多高 几时 哪里 哪儿 哪些 哪个 哪位 哪种 哪样
哪边 哪一 是否 请问 啥 谁 哪 几
`;
// Words that only place the question in time ("now"): the current-state intent reads them, terms do not.
const NOW_WORDS = '现在 目前 如今 当前 眼下 现今';
// Sentence-final and aspect particles: cut from the end of a segment the segmenter glued them to (花了).
const PARTICLES = '了 的 吗 呢 吧 啊 呀 么 嘛 啦 哦 哈 着 过';
// Words that end in a particle character but are words of their own.
const LEXICAL =
  '目的 为了 除了 罢了 极了 有的 别的 真的 好的 是的 似的 过过 看过 不过 难过 经过 超过 通过 错过';
// A demonstrative or question word and a classifier (那台, 这次, 哪家, 几点) point at a thing, never name it.
const DEMONSTRATIVES = '那这哪几某此';
const CLASSIFIERS =
  '个位家台次张笔条件份款种本辆顿场趟只块篇封段回批项样类所间处层根支把片套杯瓶对群届期天年月周号点岁遍番';

const words = (list: string): string[] => list.split(/\s+/).filter((w) => w !== '');

const QUESTION = words(QUESTION_WORDS).sort((a, b) => b.length - a.length);
const DROPPED: ReadonlySet<string> = new Set([...QUESTION, ...words(NOW_WORDS)]);
const PARTICLE: ReadonlySet<string> = new Set(words(PARTICLES));
const LEXICAL_WORDS: ReadonlySet<string> = new Set(words(LEXICAL));
const DEMONSTRATIVE: ReadonlySet<string> = new Set(DEMONSTRATIVES);
const CLASSIFIER: ReadonlySet<string> = new Set(CLASSIFIERS);

const HAN_RUN = /\p{sc=Han}+/gu;
const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });

/** A character or word that carries no content: a stop word, a question word or a particle. */
const isFunction = (word: string): boolean => isStopWord(word) || DROPPED.has(word) || PARTICLE.has(word);

/** The part of a segment left once its function words are cut from both ends: [from, to). */
export function contentSpan(segment: string): [number, number] {
  if (isFunction(segment) || [...segment].every(isFunction)) return [0, 0];
  let from = 0;
  let to = segment.length;
  for (let cut = true; cut && from < to;) {
    cut = false;
    const rest = segment.slice(from, to);
    const question = QUESTION.find((q) => q.length < rest.length && rest.startsWith(q));
    if (question) {
      from += question.length;
      cut = true;
    }
  }
  for (let cut = true; cut && from < to;) {
    cut = false;
    const rest = segment.slice(from, to);
    const question = QUESTION.find((q) => q.length < rest.length && rest.endsWith(q));
    if (question) {
      to -= question.length;
      cut = true;
    } else if (rest.length > 1 && PARTICLE.has(rest.at(-1) ?? '') && !LEXICAL_WORDS.has(rest)) {
      to -= 1;
      cut = true;
    }
  }
  const left = segment.slice(from, to);
  return left === '' || isFunction(left) ? [0, 0] : [from, to];
}

/**
 * The text with every Chinese function word blanked out (same length, spaces in its place): question words
 * (什么, 哪个, 为什么, 是不是), particles (吗, 呢, 了, 的), pronouns and demonstratives with their classifier
 * (那台, 这次), and "now" words (现在, 目前). The tokenizer then never joins the words on either side.
 */
export function maskChineseFunctionWords(text: string): string {
  return text.replace(HAN_RUN, (run) => {
    const segments = [...SEGMENTER.segment(run)].map((s) => s.segment);
    let out = '';
    for (let i = 0; i < segments.length; i++) {
      let segment = segments[i] ?? '';
      // 那台 / 这次 as one segment, or 那 | 顿 as two: never a classifier that begins a word (那 | 年纪).
      const next = segments[i + 1] ?? '';
      if (segment.length === 1 && DEMONSTRATIVE.has(segment) && next.length === 1 && CLASSIFIER.has(next)) {
        out += '  ';
        i++;
        continue;
      }
      let lead = '';
      if (segment.length > 2 && DEMONSTRATIVE.has(segment[0] ?? '') && CLASSIFIER.has(segment[1] ?? '')) {
        lead = '  ';
        segment = segment.slice(2);
      } else if (
        segment.length === 2 &&
        DEMONSTRATIVE.has(segment[0] ?? '') &&
        CLASSIFIER.has(segment[1] ?? '')
      ) {
        out += '  ';
        continue;
      }
      const [from, to] = contentSpan(segment);
      out += lead + ' '.repeat(from) + segment.slice(from, to) + ' '.repeat(segment.length - to);
    }
    return out;
  });
}
