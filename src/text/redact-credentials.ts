// Credentials that need structure rather than a provider prefix: `key=value` secrets and passwords in URLs.
import type { RedactionSpan, RedactionType } from './redact.js';
import { eachMatch } from './redact-scan.js';

const PRIORITY_URL = 10;
const PRIORITY_KEY_VALUE = 20;

const EN_KEYS = [
  'password',
  'passwd',
  'passphrase',
  'pwd',
  String.raw`secret[ _-]?(?:access[ _-]?)?key`,
  String.raw`client[ _-]?secret`,
  'secret',
  String.raw`(?:access|refresh|auth|session|bearer)[ _-]?token`,
  'token',
  String.raw`api[ _-]?key`,
  'apikey',
  String.raw`access[ _-]?key`,
  String.raw`private[ _-]?key`,
].join('|');

// A quoted value, or an unquoted ASCII run that stops at whitespace, separators and CJK text.
const VALUE = String.raw`("(?:[^"\\\n]|\\.){0,256}"|'(?:[^'\\\n]|\\.){0,256}'|“[^”\n]{0,256}”|[^\s"'\x60,;&<>\u0080-\uffff]{1,256})`;

// [open quote] keyword [up to 4 `_suffix` parts: `password_hash`, `token_v2`] [close quote] connector value.
const EN_KEY_VALUE = new RegExp(
  String.raw`(?<![A-Za-z0-9])(?<open>["']?)(?<key>${EN_KEYS})(?:[_.-][A-Za-z0-9]{1,24}){0,4}["']?(?<joint>\s*(?:=>|[:=：])\s*|\s+is\s+)(?<value>${VALUE})`,
  'gi',
);
const ZH_KEY_VALUE = new RegExp(
  String.raw`(?<key>密码|密碼|口令|密钥|密鑰|秘钥|令牌)(?<joint>\s*(?:[:=：]|(?:是|为|為)\s*[:：]?)\s*)(?<value>${VALUE})`,
  'g',
);

// scheme://user:password@host, user possibly empty; greedy up to the last `@` so `p@ss` is not cut in half.
const URL_USERINFO =
  /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:/?#@]{0,256}:([^\s/?#]{1,256})@/g;

// A code reference (`this.password`, `access_token`, `getToken(user)`), not a literal.
const CODE_REFERENCE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[a-z]+(?:_[a-z]+)+$/;
const CODE_CALL = /^[A-Za-z_$][\w$.]*\(/;
const PLACEHOLDER =
  /^(?:password|passwd|pwd|secret|token|api[_-]?key|your[_-]?[a-z_]*|\*+|x{3,}|\.{3}|…+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\{[^}]*\}|\$\([^)]*\)|%[A-Z_]+%|\$[A-Z_]+|null|none|nil|undefined|true|false)$/i;

export function scanCredentials(text: string, out: RedactionSpan[]): void {
  if (text.includes('://')) scanUrlPasswords(text, out);
  scanKeyValues(text, EN_KEY_VALUE, false, out);
  if (/[密口令秘]/.test(text)) scanKeyValues(text, ZH_KEY_VALUE, true, out);
}

function scanUrlPasswords(text: string, out: RedactionSpan[]): void {
  eachMatch(URL_USERINFO, text, (match) => {
    const password = match[1] ?? '';
    if (PLACEHOLDER.test(password)) return;
    const end = match.index + match[0].length - 1;
    out.push({
      type: 'password',
      rule: 'mnemo/url-password',
      start: end - password.length,
      end,
      priority: PRIORITY_URL,
    });
  });
}

function scanKeyValues(text: string, pattern: RegExp, chinese: boolean, out: RedactionSpan[]): void {
  eachMatch(pattern, text, (match) => {
    const groups = match.groups ?? {};
    const raw = groups.value ?? '';
    const valueStart = match.index + match[0].length - raw.length;
    const quoted = /^["'“]/.test(raw);
    const candidate: KeyValue = {
      type: keyType((groups.key ?? '').toLowerCase()),
      value: quoted ? raw.slice(1, -1) : raw.replace(/[.,:;)\]}]+$/, ''),
      joint: groups.joint ?? '',
      quoted,
      keyQuoted: Boolean(groups.open),
      chinese,
    };
    if (!isCredentialValue(candidate)) return;
    const start = quoted ? valueStart + 1 : valueStart;
    out.push({
      type: candidate.type,
      rule: chinese ? 'mnemo/key-value-zh' : 'mnemo/key-value',
      start,
      end: start + candidate.value.length,
      priority: PRIORITY_KEY_VALUE,
    });
  });
}

interface KeyValue {
  type: RedactionType;
  value: string;
  /** The connector as written, whitespace included. */
  joint: string;
  quoted: boolean;
  keyQuoted: boolean;
  chinese: boolean;
}

const MIN_LENGTH: Partial<Record<RedactionType, number>> = { password: 3, secret: 4 };

function keyType(key: string): RedactionType {
  if (/pass|pwd|密|口令/.test(key) && !/密钥|密鑰/.test(key)) return 'password';
  if (key.includes('private')) return 'private_key';
  if (/secret|钥|鑰/.test(key)) return 'secret';
  if (/token|令牌/.test(key)) return 'token';
  return 'api_key';
}

function isCredentialValue({ type, value, joint, quoted, keyQuoted, chinese }: KeyValue): boolean {
  if (PLACEHOLDER.test(value) || value.length < (MIN_LENGTH[type] ?? 8)) return false;
  // `secret:\n  secretName: x` opens a nested mapping; the next line is not the value.
  if (joint.includes('\n')) return false;
  const word = joint.trim();
  if (word === 'is' || word === '是' || word === '为' || word === '為') {
    return value.length >= 4 && (chinese || /\d/.test(value));
  }
  if (!quoted && (CODE_CALL.test(value) || (CODE_REFERENCE.test(value) && !/\d/.test(value)))) return false;
  // Prose after `: ` ("Password: please reset it", "a secret: **dry brining**", `secret: "a sentence"`).
  if (!chinese && !keyQuoted && /^\s*[:：]\s+$/.test(joint)) {
    if (quoted) return !/\s/.test(value);
    const core = value.replace(/^[*_~]+|[*_~]+$/g, '');
    if (/^[A-Za-z]+$/.test(core)) return /[a-z]/.test(core) && /[A-Z]/.test(core.slice(1));
  }
  return true;
}
