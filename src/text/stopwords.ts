// Function words of English and Chinese, for choosing which query terms matter.

import { stemEnglish } from './stem.js';

// Contractions appear as the tokenizer leaves them: `'s 'll 'd 're 've 'm` are cut, `n't` is joined.
const ENGLISH = `
a about above after again against all also am an and any anyone anything are around as at
be because been before being below between both but by
can cant could couldnt
did didnt do does doesnt doing done dont down during
each either else ever every everything
few for from further
had hadnt has hasnt have havent having he her here hers herself him himself his how however
i if im in into is isnt it its itself ive
just
me might more most much must my myself
neither no nor not now
of off on once only or other others ought our ours ourselves out over own
please
rather really
same shall she should shouldnt since so some someone something such
than that thats the their theirs them themselves then there these they theyre this those though through
to too
under until up upon us
very
was wasnt we were werent what whats when where whether which while who whom whose why will with
within without wont would wouldnt
yes yet you youre your yours yourself yourselves
`;

// Particles, pronouns, question words, conjunctions and prepositions; no content words.
const CHINESE = `
的 地 得 了 着 过 吗 呢 吧 啊 呀 哦 嗯 嘛 啦 哈 么 之 其
我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 自己 大家
这 那 这个 那个 这些 那些 这样 那样 这里 那里 这么 那么
是 不是 在 有 没有 没 不 也 都 还 就 又 才 再 很 太 更 最 已经 曾经 正在
和 与 跟 同 及 以及 或 或者 还是 但 但是 而 而且 并 并且 如果 虽然 因为 所以 然后 就是 只是
对 对于 给 把 被 让 从 到 向 往 为 为了 关于 比 用 于 以 由 等 等等
什么 怎么 怎么样 怎样 为什么 哪 哪里 哪儿 哪个 哪些 谁 几 多少 吗 是否 是不是 有没有
一个 一些 一下 一点 个 些 上 下 中 里
会 能 可以 要 想 请
`;

const STOP_WORDS: ReadonlySet<string> = buildStopWords();

function buildStopWords(): Set<string> {
  const set = new Set<string>();
  for (const word of ENGLISH.split(/\s+/)) {
    if (word === '') continue;
    // Both forms: callers pass tokenizer output (stemmed), people pass words.
    set.add(word);
    set.add(stemEnglish(word));
  }
  for (const word of CHINESE.split(/\s+/)) if (word !== '') set.add(word);
  return set;
}

/** Whether a token (tokenizer output: NFKC, lower case, stemmed) is an English or Chinese function word. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
