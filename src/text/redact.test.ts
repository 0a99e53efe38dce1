import { describe, expect, it } from 'vitest';
import { fake, negatives, positives } from '../../test/fixtures/redaction/corpus.js';
import { createRedactor, mergeSpans, type RedactionSpan } from './redact.js';

const redactor = createRedactor({ salt: 'test-salt' });

describe('redaction corpus / 脱敏语料', () => {
  it.each(positives.map((c) => [c.name, c] as const))('redacts %s', async (_name, c) => {
    const result = await redactor.redact(c.text);
    expect(result.text).toBe(c.expected);
    expect(result.redacted).toBe(true);
    expect(result.findings.map((f) => f.type)).toEqual(c.secrets.map((s) => s.type));
    // Offsets index the original text.
    expect(result.findings.map((f) => c.text.slice(f.start, f.end))).toEqual(c.secrets.map((s) => s.value));
    for (const secret of c.secrets) {
      expect(result.text).not.toContain(secret.value);
      expect(JSON.stringify(result.findings)).not.toContain(secret.value);
    }
  });

  it.each(negatives.map((text) => [text] as const))('leaves ordinary dialogue alone: %s', async (text) => {
    const result = await redactor.redact(text);
    expect(result.findings).toEqual([]);
    expect(result).toEqual({ text, redacted: false, findings: [] });
  });

  it('redactMany keeps order and matches redact / 批量结果与单条一致', async () => {
    const texts = [...positives.map((c) => c.text), ...negatives];
    const many = await redactor.redactMany(texts);
    const one = await Promise.all(texts.map((t) => redactor.redact(t)));
    expect(many).toEqual(one);
    expect(await redactor.redactMany([])).toEqual([]);
  });

  it('is idempotent: redacted output has nothing left to find / 二次脱敏无新发现', async () => {
    const once = await redactor.redactMany(positives.map((c) => c.text));
    const twice = await redactor.redactMany(once.map((r) => r.text));
    expect(twice.flatMap((r) => r.findings)).toEqual([]);
  });
});

describe('a text that is only a credential / 整条只是凭据', () => {
  it.each([
    ['api_key', fake.openaiProject],
    ['token', `  ${fake.github}\n`],
    ['private_key', `\n${fake.rsaPem}\n`],
    ['jwt', fake.jwt],
    ['phone', '138 1234 5678'],
    ['id_number', fake.residentId],
  ] as const)('becomes exactly the %s marker', async (type, text) => {
    const result = await redactor.redact(text);
    expect(result.text).toBe(`[redacted:${type}]`);
    expect(result.findings).toHaveLength(1);
  });

  it('keeps the key of a key=value pair / 键保留，只替换值', async () => {
    expect((await redactor.redact(`password=${fake.password}`)).text).toBe('password=[redacted:password]');
  });
});

describe('findings / 发现项', () => {
  it('carry a salted hash, never the value / 哈希加盐且不含原值', async () => {
    const text = `token ${fake.github}`;
    const a = (await createRedactor({ salt: 'a' }).redact(text)).findings[0];
    const a2 = (await createRedactor({ salt: 'a' }).redact(`again: ${fake.github}`)).findings[0];
    const b = (await createRedactor({ salt: 'b' }).redact(text)).findings[0];
    expect(a?.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(a?.hash).toBe(a2?.hash);
    expect(a?.hash).not.toBe(b?.hash);
    expect(a?.rule).toBe('secretlint/github:GITHUB_TOKEN');
    expect(Object.keys(a ?? {}).sort()).toEqual(['end', 'hash', 'rule', 'start', 'type']);
  });

  it('report several findings in one text in order / 一条文本多处发现按位置排序', async () => {
    const text = `邮箱 bob@example.com，电话 +86 138 1234 5678，卡号 ${fake.visa}，key ${fake.google}`;
    const result = await redactor.redact(text);
    expect(result.text).toBe(
      '邮箱 [redacted:email]，电话 [redacted:phone]，卡号 [redacted:card_number]，key [redacted:api_key]',
    );
    const starts = result.findings.map((f) => f.start);
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
  });

  it('index the original text, including after a BOM / 偏移量对应原文（含 BOM）', async () => {
    const text = `\uFEFFAWS_SECRET_ACCESS_KEY=${fake.awsSecretKey} password=${fake.password}`;
    const result = await redactor.redact(text);
    expect(result.findings.map((f) => text.slice(f.start, f.end))).toEqual([
      fake.awsSecretKey,
      fake.password,
    ]);
  });

  it('cover a PEM block across lines, CRLF included / PEM 私钥块跨行整体替换', async () => {
    const crlf = fake.rsaPem.replace(/\n/g, '\r\n');
    const result = await redactor.redact(`key:\r\n${crlf}\r\nend of message`);
    expect(result.text).toBe('key:\r\n[redacted:private_key]\r\nend of message');
  });
});

describe('options / 选项', () => {
  it('emails: false keeps e-mail addresses / 关闭后保留邮箱', async () => {
    const text = '联系 zhang.san@example.cn 或 13812345678';
    const result = await createRedactor({ emails: false }).redact(text);
    expect(result.text).toBe('联系 zhang.san@example.cn 或 [redacted:phone]');
  });

  it('emails default to redacted / 默认脱敏邮箱', async () => {
    expect((await createRedactor().redact('mail bob@example.com')).text).toBe('mail [redacted:email]');
  });
});

describe('pathological input / 病态输入', () => {
  // Regression: an unbounded `(?:_suffix)*` after the keyword took seconds on `secret_secret_…`.
  it('stays linear on 100 KB of rule fragments / 100 KB 规则片段保持线性', async () => {
    const n = 100_000;
    const inputs = [
      'secret_'.repeat(n / 7),
      'token_'.repeat(n / 6),
      '-----BEGIN PRIVATE KEY-----\n'.repeat(n / 28),
      'password="' + 'a'.repeat(n),
      'https://user:' + 'p'.repeat(n),
      'a.'.repeat(n / 2) + '@',
      '1 '.repeat(n / 2),
      '+1 '.repeat(n / 3),
      'eyJaaaaa.eyJ' + 'a.'.repeat(n / 2),
    ];
    const started = performance.now();
    await redactor.redactMany(inputs);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('regression for issue 8: pathological input for the new rules / 新规则的病态输入', () => {
  it('stays fast on 100 KB of key, header, command and PEM fragments / 100 KB 片段', async () => {
    const n = 100_000;
    const inputs = [
      'sig='.repeat(n / 4),
      'token_count='.repeat(n / 12),
      'password=' + 'a;'.repeat(n / 2),
      'password=' + '}'.repeat(n),
      'key '.repeat(n / 4),
      'secret access key '.repeat(n / 18),
      'Cookie: a=' + 'b'.repeat(n),
      'mysql' + ' -p'.repeat(n / 3),
      'curl' + ' -u a'.repeat(n / 5),
      ('A'.repeat(64) + '\n').repeat(n / 65),
      'MII'.repeat(n / 3),
      '１'.repeat(n),
      '138 '.repeat(n / 4),
      '--password '.repeat(n / 11),
      'Password: '.repeat(n / 10),
      '<password>'.repeat(n / 10),
      '密码'.repeat(n / 2),
    ];
    const started = performance.now();
    await redactor.redactMany(inputs);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('mergeSpans / 重叠合并', () => {
  const span = (start: number, end: number, type: RedactionSpan['type'], priority = 0): RedactionSpan => ({
    type,
    rule: `r-${type}`,
    start,
    end,
    priority,
  });

  it('unions overlapping spans and names them after the longest / 取并集，类型取最长者', () => {
    expect(mergeSpans([span(3, 20, 'email'), span(0, 5, 'phone')])).toEqual([span(0, 20, 'email')]);
  });

  it('keeps touching spans apart and breaks ties by priority / 相邻不合并，等长按优先级', () => {
    expect(mergeSpans([span(5, 9, 'token', 5), span(0, 5, 'phone'), span(5, 9, 'jwt', 0)])).toEqual([
      span(0, 5, 'phone'),
      span(5, 9, 'jwt', 0),
    ]);
  });

  it('never cuts a secret when a short span starts first / 短片段在前也不泄露后半段', async () => {
    // The phone rule sees the first 11 digits (with `call` as context); the e-mail rule the whole address.
    const result = await redactor.redact('call 13812345678@example.com');
    expect(result.text).toBe('call [redacted:email]');
  });
});
