import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import {
  hanCharacters,
  isStopWord,
  MAX_TOKEN_LENGTH,
  queryTerms,
  tokenize,
  TOKENIZER_VERSION,
} from './tokenize.js';

// The contract with the search index: what FTS5 `unicode61 tokenchars '-_.'` keeps whole.
const FTS_TOKEN = /^[\p{L}\p{N}\p{M}\p{Co}][\p{L}\p{N}\p{M}\p{Co}\-_.]*$/u;

const CORPUS = [
  'ＡＢＣ１２３ Hello World',
  "Meetings about the meeting's invoices, and the users' policies.",
  'RB-2026-0917 t042 invoice_2026-09.pdf v1.2.3 user@example.com __init__.py 3.5 3pm',
  '上周三我们讨论了发票报销',
  '我在RB-2026-0917工单里写了invoice',
  '東京タワーに行きました。서울에 갔어요',
  '𠮷野家で食べた',
  'café naïve Straße İstanbul ΣΊΣΥΦΟΣ ǅemal ﬁle ①②③ Ⅻ ½ x² H₂O',
  'مرحبا بالعالم ١٢٣ नमस्ते दुनिया สวัสดีครับ Привет, мир! Ёлка',
  '❤️ 👍🏽 👨‍👩‍👧 1️⃣ #️⃣ 🇨🇳 ™ © ® → ∑ ∞ ≠ ¥ € $',
  'https://example.com/a-b_c/d.e?x=1&y=2#frag C++ C# .NET node.js e.g. i.e. wait...what a--b',
  '\u0301abc \u200bzero\u200dwidth soft\u00adhyphen tab\tnew\nline \u0000null \ud800lone \ue000private',
  '°C 10:30 2026/09/17 1,000,000 -5 +3 3.14159 1e10 0x1F ｶﾀｶﾅ ㍿ ㈱ 𝐀𝐁𝐂 \u3099',
  `${'a'.repeat(100)} ${'x-'.repeat(40)}y`,
];

/** Strings drawn from a palette that crosses every character class the tokenizer cares about. */
function fuzzCorpus(count: number): string[] {
  const palette = Array.from(
    'aZ09_-.\'’ @#/\\,;:!?()[]{}<>"\t\n' +
      'éÉßİıσςΣ' +
      '\u0301\u0308\u200b\u200c\u200d\u00ad\ufe0f\u20e3' +
      '中文的了发票ー々〇かカ한글ｶＡ１' +
      '١٢अिाँ์ั' +
      '😀👍🏽❤\ue000\ud800\udc00x\udfff™©→∑½²',
  );
  let seed = 42;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + random(40) }, () => palette[random(palette.length)]).join(''),
  );
}

/** The tokenizer spec of the newest migration that declares one. */
function ftsTokenizerSpec(): string | undefined {
  const dir = new URL('../storage/migrations/sqlite/', import.meta.url);
  let spec: string | undefined;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const match = /tokenize\s*=\s*"([^"]+)"/.exec(readFileSync(new URL(file, dir), 'utf8'));
    if (match?.[1] !== undefined) spec = match[1];
  }
  return spec;
}

describe('tokenize', () => {
  it('applies NFKC before anything else: full-width ＡＢＣ１２３ is abc123', () => {
    expect(tokenize('ＡＢＣ１２３')).toContain('abc123');
    expect(tokenize('ﬁle')).toEqual(tokenize('file'));
    expect(tokenize('㈱')).toEqual(['株']);
  });

  it('folds case', () => {
    expect(tokenize('Hello WORLD ΣΊΣΥΦΟΣ Ёлка')).toEqual(tokenize('hello world σίσυφοσ ёлка'));
  });

  it('stems English inflections to one form', () => {
    const same = (a: string, b: string) => expect(queryTerms(a), `${a} / ${b}`).toEqual(queryTerms(b));
    same('meetings', 'meeting');
    same('invoices', 'invoice');
    same('policies', 'policy');
    same('studied', 'studying');
    same('running', 'run');
    same('scheduled', 'schedule');
    same("user's", 'user');
    same('users', 'user');
  });

  it('keeps English stop words (selection drops them later, not tokenize)', () => {
    expect(tokenize('What did I say about the invoice?')).toEqual([
      'what',
      'did',
      'i',
      'say',
      'about',
      'the',
      'invoic',
    ]);
  });

  it('cuts clitics and joins other apostrophes', () => {
    expect(tokenize("I'm sure it's John’s; we'll see, I'd go. Don't!")).toEqual([
      'i',
      'sure',
      'it',
      'john',
      'we',
      'see',
      'i',
      'go',
      'dont',
    ]);
  });

  it('keeps identifiers whole and split', () => {
    expect(tokenize('RB-2026-0917')).toEqual(['rb-2026-0917', 'rb', '2026', '0917']);
    expect(tokenize('T042')).toEqual(['t042', 't', '042']);
    expect(tokenize('invoice_2026-09.pdf')).toEqual([
      'invoice_2026-09.pdf',
      ...tokenize('invoice'),
      '2026',
      '09',
      'pdf',
    ]);
    expect(tokenize('v1.2.3')).toEqual(['v1.2.3', 'v1', 'v', '1', '2', '3']);
    expect(tokenize('__init__.py')).toEqual(['init__.py', 'init', 'py']);
    expect(tokenize('user@example.com')).toEqual(['user', 'example.com', ...tokenize('example'), 'com']);
    expect(tokenize('well-known')).toEqual(['well-known', 'well', 'known']);
  });

  it('separates at ellipses and double dashes instead of joining', () => {
    expect(tokenize('wait...what a--b')).toEqual(['wait', 'what', 'a', 'b']);
  });

  it('keeps numbers whole, leading zeros included', () => {
    expect(tokenize('2026 0917 3.5')).toEqual(['2026', '0917', '3.5', '3', '5']);
  });

  it('gives Chinese segmenter words plus every bigram: 上周三我们讨论了发票报销', () => {
    const text = '上周三我们讨论了发票报销';
    const tokens = tokenize(text);
    expect(tokens).toEqual(expect.arrayContaining(['发票', '报销', '讨论', '了']));
    const chars = Array.from(text);
    for (let i = 0; i + 1 < chars.length; i++) expect(tokens).toContain(`${chars[i]}${chars[i + 1]}`);
    // A two-character word is its own bigram and counts once.
    expect(tokens.filter((t) => t === '发票')).toHaveLength(1);
  });

  it('emits a one-character CJK run as itself', () => {
    expect(tokenize('我')).toEqual(['我']);
    expect(tokenize('好 的')).toEqual(['好', '的']);
  });

  it('handles Japanese, Korean and characters outside the BMP', () => {
    expect(tokenize('東京タワーに行きました')).toEqual(expect.arrayContaining(['東京', 'タワ', 'ワー']));
    expect(tokenize('서울에 갔어요')).toEqual(expect.arrayContaining(['서울', '갔어']));
    const tokens = tokenize('𠮷野家');
    expect(tokens).toEqual(expect.arrayContaining(['𠮷野', '野家']));
    for (const token of tokens) expect(token).toMatch(FTS_TOKEN); // no split surrogate pairs
  });

  it('yields CJK and Latin tokens of mixed text in order: 我在RB-2026-0917工单里写了invoice', () => {
    const tokens = tokenize('我在RB-2026-0917工单里写了invoice');
    const order = ['我在', 'rb-2026-0917', 'rb', '2026', '0917', '工单', '写了', ...tokenize('invoice')].map(
      (t) => tokens.indexOf(t),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('drops emoji and symbols', () => {
    expect(tokenize('👍🏽 ❤️ 👨‍👩‍👧 → ∑ © 1️⃣')).toEqual(['1']);
  });

  it(`drops tokens longer than ${MAX_TOKEN_LENGTH} characters`, () => {
    expect(tokenize('a'.repeat(MAX_TOKEN_LENGTH))).toEqual(['a'.repeat(MAX_TOKEN_LENGTH)]);
    expect(tokenize('a'.repeat(MAX_TOKEN_LENGTH + 1))).toEqual([]);
    expect(tokenize(`${'ab-'.repeat(30)}cd`)).not.toContain(`${'ab-'.repeat(30)}cd`);
    expect(tokenize('')).toEqual([]);
  });

  it('every token matches the FTS token pattern, on a varied corpus and fuzzed strings', () => {
    const bad = [...CORPUS, ...fuzzCorpus(2_000)].flatMap((text) =>
      tokenize(text)
        .filter((token) => !FTS_TOKEN.test(token) || token.length > MAX_TOKEN_LENGTH)
        .map((token) => ({ text, token })),
    );
    expect(bad).toEqual([]);
  });

  // SQLite only: the FTS5 tokenizer spec (PostgreSQL stores mnemo's tokens as they are).
  it('every token survives FTS5 unicode61 as configured by the migrations', () => {
    const spec = ftsTokenizerSpec();
    expect(spec).toBeDefined();
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize = "${spec}")`);
    db.exec(`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`);
    const tokens = [...new Set([...CORPUS, ...fuzzCorpus(500)].flatMap((text) => tokenize(text)))];
    const insert = db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)');
    tokens.forEach((token, i) => insert.run(i + 1, token));
    const rows = db.prepare('SELECT doc, term FROM v').all() as { doc: number; term: string }[];
    const seen = new Map<number, string[]>();
    for (const row of rows) seen.set(row.doc, [...(seen.get(row.doc) ?? []), row.term]);
    const changed = tokens.filter((token, i) => seen.get(i + 1)?.join(' ') !== token);
    db.close();
    expect(changed).toEqual([]);
  });

  it('feeds the segmenter short texts, so a long CJK run costs linear time', () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      const tokens = new Set(tokenize('我们讨论了发票报销'.repeat(5_000)));
      expect(segment).toHaveBeenCalled();
      for (const [input] of segment.mock.calls) expect(input.length).toBeLessThanOrEqual(512);
      for (const bigram of ['我们', '们讨', '讨论', '论了', '了发', '发票', '票报', '报销', '销我']) {
        expect(tokens).toContain(bigram);
      }
    } finally {
      segment.mockRestore();
    }
  });

  it('is deterministic, also once its stem cache is warm', () => {
    const texts = [...CORPUS, '好的，谢谢！好的', '谢谢你们的发票报销'];
    const cold = texts.map((t) => tokenize(t));
    for (const text of fuzzCorpus(300)) tokenize(text);
    expect(texts.map((t) => tokenize(t))).toEqual(cold);
  });
});

describe('queryTerms', () => {
  it('returns unique tokens in first-seen order', () => {
    expect(queryTerms('the invoice and the invoices 发票 发票')).toEqual([
      'the',
      ...tokenize('invoice'),
      'and',
      '发票',
    ]);
  });

  it('agrees with tokenize on every text', () => {
    for (const text of [...CORPUS, ...fuzzCorpus(200)]) {
      const terms = queryTerms(text);
      expect(new Set(terms).size).toBe(terms.length);
      expect(new Set(terms)).toEqual(new Set(tokenize(text)));
    }
  });

  it('lets a query find its document through the shared pipeline', () => {
    const doc = new Set(
      tokenize('The Meetings on RB-2026-0917: 我们讨论了发票报销, see invoice_2026-09.pdf'),
    );
    for (const query of ['meeting', 'rb-2026-0917', '2026', '发票', '报销', 'invoices', 'PDF', '０９１７']) {
      expect(
        queryTerms(query).every((t) => doc.has(t)),
        query,
      ).toBe(true);
    }
  });
});

describe('isStopWord', () => {
  it('knows English function words, as words and as tokens', () => {
    for (const word of [
      'what',
      'did',
      'the',
      'i',
      'my',
      'you',
      'with',
      'about',
      'why',
      'does',
      'during',
      'dont',
    ]) {
      expect(isStopWord(word), word).toBe(true);
      for (const token of tokenize(word)) expect(isStopWord(token), token).toBe(true);
    }
  });

  it('knows Chinese function words and particles', () => {
    for (const word of ['的', '了', '吗', '我', '你', '是', '在', '什么', '怎么', '呢', '吧', '我们']) {
      expect(isStopWord(word), word).toBe(true);
    }
  });

  it('does not flag content words', () => {
    const content = [...tokenize('invoice meeting May quit like use'), '发票', '报销', '讨论', '上周'];
    for (const token of content) expect(isStopWord(token), token).toBe(false);
  });
});

it('TOKENIZER_VERSION is a positive integer', () => {
  expect(Number.isInteger(TOKENIZER_VERSION) && TOKENIZER_VERSION >= 1).toBe(true);
});

describe('hanCharacters', () => {
  it('lists each Han character of the tokens once, and nothing else / 每个汉字一次', () => {
    expect(hanCharacters(tokenize('我有一条狗，狗很乖'))).toEqual(['我', '有', '一', '条', '狗', '很', '乖']);
    expect(hanCharacters(tokenize('東京タワー and 서울 RB-2026'))).toEqual(['東', '京']);
    expect(hanCharacters(tokenize('𠮷野家'))).toEqual(['𠮷', '野', '家']);
    expect(hanCharacters([])).toEqual([]);
  });
});
