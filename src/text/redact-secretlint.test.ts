import { describe, expect, it } from 'vitest';
import { fake, negatives, positives } from '../../test/fixtures/redaction/corpus.js';
import { needsSecretlint, scanWithSecretlint } from './redact-secretlint.js';

const wrappers = [(v: string) => v, (v: string) => `前缀 ${v} 后缀`, (v: string) => `"${v}",\n`];

describe('secretlint prefilter / 预过滤', () => {
  // invariant: the prefilter is a superset of what secretlint reports, so skipping secretlint loses nothing.
  it('passes every text on which secretlint reports something / 预过滤覆盖 secretlint 的全部发现', async () => {
    const texts = [
      ...positives.map((c) => c.text),
      ...positives.flatMap((c) => c.secrets.flatMap((s) => wrappers.map((w) => w(s.value)))),
      ...negatives,
    ];
    let reported = 0;
    for (const text of texts) {
      if ((await scanWithSecretlint(text)).length === 0) continue;
      reported++;
      expect(needsSecretlint(text), text).toBe(true);
    }
    expect(reported).toBeGreaterThan(30);
  });

  it('rejects ordinary dialogue / 普通对话不触发', () => {
    expect(negatives.filter((text) => needsSecretlint(text))).toEqual([
      // Prefilter hits that secretlint then clears: cheap, but listed so a wider prefilter is a visible change.
      'The bearer of bad news arrived.',
      'Authorization is required for this endpoint.',
      'My savings account: 3 years old',
    ]);
  });
});

describe('scanWithSecretlint / secretlint 扫描', () => {
  it('maps the AWS secret key range onto the value, not the key name / AWS 密钥偏移指向值', async () => {
    const text = `export AWS_SECRET_ACCESS_KEY=${fake.awsSecretKey}`;
    const [span] = await scanWithSecretlint(text);
    expect(span?.rule).toBe('secretlint/aws:AWSSecretAccessKey');
    expect(text.slice(span?.start, span?.end)).toBe(fake.awsSecretKey);
  });

  it('narrows basic-auth and database URLs to the password / URL 只替换密码', async () => {
    const text = 'https://alice:pa55word@git.example.com/x mongodb://app:Db-pass-42@db.example.com/app';
    const spans = await scanWithSecretlint(text);
    expect(spans.map((s) => [s.rule, text.slice(s.start, s.end)])).toEqual([
      ['secretlint/basicauth:BasicAuth', 'pa55word'],
      ['secretlint/database-connection-string:MongoDBConnection', 'Db-pass-42'],
    ]);
  });

  it('keeps the key of an AWS account id / AWS 账号只替换数字', async () => {
    const text = 'aws_account_id: 1234-5678-9012';
    const spans = await scanWithSecretlint(text);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['1234-5678-9012']);
  });

  it('cannot be switched off by a secretlint-disable comment in the text / 文本中的禁用注释无效', async () => {
    const text = `<!-- secretlint-disable -->\n${fake.github}\n# secretlint-disable-line`;
    expect(await scanWithSecretlint(text)).toHaveLength(1);
  });
});
