import { describe, expect, it } from 'vitest';
import { fake } from '../../test/fixtures/redaction/corpus.js';
import { createRedactor } from './redact.js';
import { isSecretValue, secretKey } from './redact-keys.js';
import { redactMeta } from './redact-meta.js';

const redactor = createRedactor({ salt: 'meta-salt' });
const meta = async (value: Record<string, unknown>) => redactMeta(redactor, value);
const PW = 'Xy7kLm9q2';

describe('regression for issue 8: meta secrets by their key / 按键名脱敏', () => {
  it.each([
    'password',
    'passwd',
    'dbPassword',
    'db_password',
    'DB-PASSWORD',
    'PGPASSWORD',
    'adminPass',
    'secret',
    'clientSecret',
    'token',
    'githubToken',
    'x-api-key',
    'apiKey',
    'APIKey',
    'access_key',
    'AccessKey',
    'privateKey',
    'credentials',
    'auth',
    'Authorization',
    'cookie',
    'Set-Cookie',
    '数据库密码',
    '访问令牌',
  ])('redacts the value under %s', async (key) => {
    const out = await meta({ [key]: PW + 'aB3', other: 'kept' });
    expect(JSON.stringify(out.meta)).not.toContain(PW);
    expect(out.meta.other).toBe('kept');
    expect(out.redacted).toBe(true);
  });

  it('follows nesting, arrays and {name, value} / {key, value} pairs / 嵌套与键值对', async () => {
    const out = await meta({
      db: { connection: { password: PW } },
      secrets: { stripe: fake.opaqueToken, count: 3 },
      env: [
        { name: 'API_TOKEN', value: fake.opaqueToken },
        { name: 'LOG_LEVEL', value: 'debug' },
      ],
      headers: [{ key: 'X-Api-Key', value: fake.opaqueToken }],
      auth: { method: 'oauth', enabled: true },
    });
    const json = JSON.stringify(out.meta);
    expect(json).not.toContain(PW);
    expect(json).not.toContain(fake.opaqueToken);
    expect(out.meta).toMatchObject({
      db: { connection: { password: '[redacted:password]' } },
      secrets: { stripe: '[redacted:secret]', count: 3 },
      env: [{ name: 'API_TOKEN', value: '[redacted:token]' }, { value: 'debug' }],
      headers: [{ key: 'X-Api-Key', value: '[redacted:api_key]' }],
      auth: { method: 'oauth', enabled: true },
    });
  });

  it('scans numbers and keys; a key that is a secret is replaced / 数字与键名也扫描', async () => {
    const out = await meta({
      phone: 13812345678,
      password: 123456,
      [fake.github]: 'ci',
      [`${fake.google}`]: 'maps',
      n: 42,
    });
    expect(out.meta).toEqual({
      phone: '[redacted:phone]',
      password: '[redacted:password]',
      '[redacted:token]': 'ci',
      '[redacted:api_key]': 'maps',
      n: 42,
    });
  });

  it('keeps keys that redact alike apart / 同名替换不丢值', async () => {
    const out = await meta({ [fake.github]: 1, [fake.githubOauth]: 2 });
    expect(out.meta).toEqual({ '[redacted:token]': 1, '[redacted:token]~2': 2 });
  });

  it('keeps counts, flags, short enums and ids / 计数、开关、枚举和 id 不脱敏', async () => {
    const plain = {
      tokens: 1234,
      token: 12345,
      token_count: 5,
      max_tokens: 4096,
      session_id: 's1',
      session: 'morning-standup',
      auth_method: 'oauth',
      auth: 'basic',
      token_type: 'Bearer',
      grant_type: 'client_credentials',
      password_length: 12,
      has_password: true,
      secret: null,
      api_key: '${API_KEY}',
      password: '********',
      note: 'order 13812345678 shipped',
    };
    const out = await meta(plain);
    expect(out).toEqual({ meta: plain, redacted: false });
  });

  it('keeps __proto__ an own key / __proto__ 仍是自有键', async () => {
    const input = JSON.parse('{"__proto__": {"password": "x1y2z3w4"}, "a": 1}') as Record<string, unknown>;
    const out = await meta(input);
    expect(Object.keys(out.meta)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(out.meta)).toBe('{"__proto__":{"password":"[redacted:password]"},"a":1}');
  });
});

describe('secretKey / 键名分类', () => {
  it.each([
    ['dbPassword', 'password'],
    ['AWS_SECRET_ACCESS_KEY', 'secret'],
    ['x-api-key', 'api_key'],
    ['AccountKey', 'secret'],
    ['_authToken', 'token'],
    ['apikey', 'api_key'],
    ['sessionToken', 'token'],
  ])('%s names a %s', (key, type) => {
    expect(secretKey(key)?.type).toBe(type);
  });

  it.each([
    'tokens',
    'token_count',
    'max_tokens',
    'session_id',
    'auth_method',
    'secret_name',
    'public_key',
    'author',
    'passport',
    'has_password',
    'tokenizer',
  ])('%s names no secret', (key) => {
    expect(secretKey(key)).toBeNull();
  });

  it('a bare key takes only a random-looking value / 裸 key 只认随机值', () => {
    const cache = secretKey('cache_key');
    if (!cache) throw new Error('unreachable');
    expect(isSecretValue(cache, 'user:42:profile')).toBe(false);
    expect(isSecretValue(cache, 'user_42_profile_2026')).toBe(false);
    expect(isSecretValue(cache, fake.awsSecretKey)).toBe(true);
  });

  it('isSecretValue tells a secret from a count, an enum and a UUID / 值的判断', () => {
    const token = secretKey('token');
    const session = secretKey('session');
    if (!token || !session) throw new Error('unreachable');
    expect(isSecretValue(token, fake.opaqueToken)).toBe(true);
    expect(isSecretValue(token, '12345')).toBe(false);
    expect(isSecretValue(token, 'client_credentials')).toBe(false);
    expect(isSecretValue(session, 's1')).toBe(false);
    expect(isSecretValue(session, '550e8400-e29b-41d4-a716-446655440000')).toBe(false);
    expect(isSecretValue(session, fake.opaqueToken)).toBe(true);
  });
});
