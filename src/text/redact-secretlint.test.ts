import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { fake, negatives, positives } from '../../test/fixtures/redaction/corpus.js';
import { PRESET_TRIGGERS, SKIPPED_PRESET_RULES } from './redact-patterns.js';
import { needsSecretlint, SCAN_RULES, scanWithSecretlint } from './redact-secretlint.js';

const wrappers = [(v: string) => v, (v: string) => `前缀 ${v} 后缀`, (v: string) => `"${v}",\n`];

const corpus = [
  ...positives.map((c) => c.text),
  ...positives.flatMap((c) => c.secrets.flatMap((s) => wrappers.map((w) => w(s.value)))),
  ...negatives,
];

describe('secretlint triggers / 触发条件', () => {
  // invariant: a rule whose trigger does not match could not have reported, so skipping it loses nothing.
  it('passes every text on which secretlint reports something / 触发条件覆盖每条规则的全部发现', async () => {
    const fired = new Set<string>();
    for (const text of corpus) {
      for (const span of await scanWithSecretlint(text, { ungated: true })) {
        const rule = SCAN_RULES.find((r) => span.rule === r.id || span.rule.startsWith(`${r.id}:`));
        expect(rule?.trigger.test(text), `${span.rule} on ${text}`).toBe(true);
        expect(needsSecretlint(text)).toBe(true);
        fired.add(rule?.id ?? '');
      }
    }
    // The corpus exercises every rule, so the check above covers them all.
    expect([...fired].sort()).toEqual(SCAN_RULES.map((r) => r.id).sort());
  });

  it('gated and ungated scans agree on the corpus / 有无触发门控结果一致', async () => {
    for (const text of corpus) {
      expect(await scanWithSecretlint(text)).toEqual(await scanWithSecretlint(text, { ungated: true }));
    }
  });

  it('knows every rule of the preset / 预设中的每条规则都有归属', () => {
    const known = [...Object.keys(PRESET_TRIGGERS), ...Object.keys(SKIPPED_PRESET_RULES)].sort();
    expect(recommendedRules.map((r) => r.meta.id).sort()).toEqual(known);
    // Flags would make `test` stateful (g) or widen the union (i).
    expect(SCAN_RULES.filter((r) => r.trigger.flags !== '').map((r) => r.id)).toEqual([]);
  });

  it('rejects ordinary dialogue / 普通对话不触发', () => {
    expect(negatives.filter((text) => needsSecretlint(text))).toEqual([]);
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

  it('keeps no performance marks / 不留下性能标记', async () => {
    const { performance } = await import('node:perf_hooks');
    const before = performance.getEntriesByType('mark').length;
    for (let i = 0; i < 50; i++) await scanWithSecretlint(`token ${fake.github}`);
    expect(performance.getEntriesByType('mark').length).toBe(before);
  });
});
