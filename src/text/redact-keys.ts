// Which keys name a secret (`dbPassword`, `DB-PASSWORD`, `x-api-key`, `访问令牌`) and which values under them are one.
import type { RedactionType } from './redact.js';

/**
 * How much a key says: a password key takes any value; a weak one (`session`, `sig`) a long one with letters
 * and digits; a bare `key` (`AZURE_STORAGE_KEY`, not `sort_key: created_at`) only a random-looking one.
 */
export type KeyStrength = 'password' | 'secret' | 'weak' | 'random';

export interface SecretKey {
  type: RedactionType;
  strength: KeyStrength;
  /** Values hold spaces by nature (`Cookie: a=1; b=2`, `Authorization: Bearer x`). */
  spaces: boolean;
}

const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'passphrase', 'passcode', 'passwords']);
const SECRET_WORDS = new Set(['secret', 'secrets', 'credential', 'credentials', 'creds']);
const TOKEN_WORDS = new Set(['token', 'bearer', 'jwt']);
const HEADER_WORDS = new Set(['auth', 'authorization', 'cookie', 'cookies']);
// `<qualifier> key` is a secret key; `cache key`, `sort key`, `public key` are not.
const KEY_QUALIFIERS: Readonly<Record<string, RedactionType>> = {
  api: 'api_key',
  app: 'api_key',
  access: 'secret',
  account: 'secret',
  secret: 'secret',
  private: 'private_key',
  signing: 'secret',
  encryption: 'secret',
  master: 'secret',
  session: 'token',
  client: 'secret',
};
// One-word compounds (`PGPASSWORD`, `apikey`, `githubtoken`), longest suffix first.
const COMPOUND_SUFFIXES: readonly [string, RedactionType][] = [
  ['privatekey', 'private_key'],
  ['password', 'password'],
  ['passwd', 'password'],
  ['accesskey', 'secret'],
  ['secretkey', 'secret'],
  ['apikey', 'api_key'],
  ['appkey', 'api_key'],
  ['secret', 'secret'],
  ['token', 'token'],
];
// The last word says the value describes a secret rather than holds one (`session_id`, `password_length`).
const DESCRIPTORS = new Set(
  (
    'name names id ids type types kind method methods mode url uri urls endpoint host hostname domain path file ' +
    'filename dir env var variable count counts len length size limit limits max min ttl expiry expires ' +
    'expiration exp timeout version format policy required enabled disabled provider scheme field fields hint ' +
    'label prompt usage used ref arn location algorithm alg strength rotation created updated at status error ' +
    'errors message valid expired reset changed index idx budget level flow grant scope scopes audience issuer ' +
    'user username login prefix suffix rule rules stdin'
  ).split(' '),
);
// The first word makes it a count or a flag (`max_tokens`, `num_token`, `has_password`, `use_auth`).
const FLAG_WORDS = new Set(
  'max min num total is has use uses require requires needs enable disable show hide allow skip with without no'.split(
    ' ',
  ),
);
const ZH_DESCRIPTOR = /长度|長度|提示|策略|规则|規則|强度|強度|类型|類型|错误|錯誤|名称|名稱/;

export function splitKey(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

// The same few keys come back again and again; classifying is a handful of regex passes.
const known = new Map<string, SecretKey | null>();

/** The secret a key names, or null. */
export function secretKey(key: string): SecretKey | null {
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  if (known.size >= 4096) known.clear();
  const found = classify(key);
  known.set(key, found);
  return found;
}

function classify(key: string): SecretKey | null {
  if (/[\u4e00-\u9fff]/.test(key)) return chineseKey(key);
  const words = splitKey(key);
  const last = words.at(-1);
  if (last === undefined || FLAG_WORDS.has(words[0] ?? '')) return null;
  if (words.length > 1 && DESCRIPTORS.has(last)) return null;
  const has = (set: Set<string>) => words.some((w) => set.has(w));
  if (has(PASSWORD_WORDS) || (words.length > 1 && words.includes('pass'))) return of('password', 'password');
  // `pass: 120` in test results is a count; `pass: s3cret!` is not.
  if (last === 'pass') return of('password', 'secret');
  for (let i = 1; i < words.length; i++) {
    const qualified = KEY_QUALIFIERS[words[i - 1] ?? ''];
    if (qualified && (words[i] === 'key' || words[i] === 'keys')) return of(qualified, 'secret');
  }
  if (has(SECRET_WORDS)) return of('secret', 'secret');
  if (has(TOKEN_WORDS)) return of('token', 'secret');
  if (has(HEADER_WORDS)) return { type: 'token', strength: 'secret', spaces: true };
  if (words.includes('session') || words.includes('sessionid') || last === 'sid') return of('token', 'weak');
  if (last === 'sig' || last === 'signature') return of('secret', 'weak');
  if ((last === 'key' || last === 'keys') && !words.includes('public')) return of('secret', 'random');
  for (const [suffix, type] of COMPOUND_SUFFIXES) {
    if (words.length === 1 && last.endsWith(suffix) && last.length <= suffix.length + 12) {
      return of(type, type === 'password' ? 'password' : 'secret');
    }
  }
  return null;
}

/** A key that describes a secret rather than holds one (`name`, `type`, `session_id`, `password_length`). */
export function isDescriptor(key: string): boolean {
  if (/[\u4e00-\u9fff]/.test(key)) return ZH_DESCRIPTOR.test(key);
  const words = splitKey(key);
  return DESCRIPTORS.has(words.at(-1) ?? '') || FLAG_WORDS.has(words[0] ?? '');
}

function chineseKey(key: string): SecretKey | null {
  if (ZH_DESCRIPTOR.test(key)) return null;
  if (/密码|密碼|口令/.test(key)) return of('password', 'password');
  if (/私钥|私鑰/.test(key)) return of('private_key', 'secret');
  if (/密钥|密鑰|秘钥|秘鑰/.test(key)) return of('secret', 'secret');
  if (/令牌|凭证|憑證|凭据|憑據|授权码|授權碼/.test(key)) return of('token', 'secret');
  return null;
}

const of = (type: RedactionType, strength: KeyStrength): SecretKey => ({ type, strength, spaces: false });

/** A value that names no secret: a template, an empty-ish word, a boolean. */
export const PLACEHOLDER =
  /^(?:password|passwd|pwd|secret|token|api[_-]?key|your[_-]?[a-z_]*|\*+|x{3,}|X{3,}|\.{3}|…+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\{[^}]*\}|\$\([^)]*\)|%[A-Z_]+%|\$[A-Za-z_][A-Za-z0-9_]*|null|none|nil|undefined|true|false|changeme|redacted|\[redacted(?::[a-z_]+)?\])$/i;

const MIN_LENGTH: Readonly<Partial<Record<RedactionType, number>>> = { password: 3, secret: 4 };

/**
 * Whether `value`, found under `key`, is a secret. Counts, timestamps and enum words are not
 * (`token: 12345`, `auth: oauth`, `grant: client_credentials`).
 */
export function isSecretValue(key: SecretKey, value: string): boolean {
  const v = value.trim();
  if (v === '' || PLACEHOLDER.test(v) || /^\[redacted:[a-z_]+\]$/.test(v)) return false;
  if (key.strength === 'password') return v.length >= 3;
  if (!key.spaces && /\s/.test(v)) return false;
  if (key.strength === 'random') return RANDOM.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v);
  // A UUID names a session; a session token is random.
  if (key.strength === 'weak') return v.length >= 16 && /[A-Za-z]/.test(v) && /\d/.test(v) && !UUID.test(v);
  if (v.length < (MIN_LENGTH[key.type] ?? 8)) return false;
  if (/^\d+$/.test(v) && v.length < 16) return false;
  return !(ENUM_WORDS.test(v) && v.length <= 32);
}

const RANDOM = /^[A-Za-z0-9+/=_-]{20,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// `oauth`, `client_credentials`, `Basic`, `READ_ONLY`: words, not a random string.
const ENUM_WORDS = /^(?:[A-Z]?[a-z]+|[A-Z]+)(?:[_ .-](?:[A-Z]?[a-z]+|[A-Z]+))*$/;
