// Credentials that need structure rather than a provider prefix: `key=value` secrets and passwords in URLs.
import type { RedactionSpan } from './redact.js';
import { isSecretValue, PLACEHOLDER, secretKey, type SecretKey } from './redact-keys.js';
import { eachMatch } from './redact-scan.js';

const PRIORITY_URL = 10;
const PRIORITY_KEY_VALUE = 20;

// A quoted value (up to its closing quote, or the end of the line when there is none), a JSON-escaped one,
// or an unquoted run that stops at whitespace and CJK text; `&`, `;` and `,` are cut later (cutUnquoted).
const QUOTED = String.raw`"(?:[^"\\\n]|\\.){0,4096}"?|'(?:[^'\\\n]|\\.){0,4096}'?|“[^”\n]{0,4096}”?|\\"(?:[^"\\\n]|\\[^"\n]){0,4096}\\"`;
const UNQUOTED = String.raw`[^\s"\x60\u2000-\u206f\u3000-\u303f\u3040-\u9fff\uff00-\uffef]{1,4096}`;
const VALUE = `${QUOTED}|${UNQUOTED}`;

// An identifier-like key (`adminPassword`, `DB-PASSWORD`, `process.env.API_KEY`, `--token`) or a few words
// ending in one (`AWS secret access key`), classified by keyOf(); connectors `=`, `:`, `=>`, `:=`,
// `: string =` (a type annotation) and ` is `. Tried only where keyStarts() puts it, hence sticky.
const KEY = String.raw`[A-Za-z_$@][\w$@.-]{0,63}(?: [A-Za-z][\w-]{0,30}){0,3}`;
const JOINT = String.raw`\s*(?:=>|:=|:\s*[A-Za-z][\w<>\[\]|.]*\s+=|[:=：])\s*|\s+(?:is|IS|Is)\s+`;
const EN_KEY_VALUE = new RegExp(
  String.raw`(?:--?)?(?<open>\\?["']?)(?<key>${KEY})(?:\\?["'])?\]?(?<joint>${JOINT})(?<value>${VALUE})`,
  'y',
);
// Every key worth a look holds one of these; scanning starts from them rather than from every word.
const KEY_WORD = /pass|pwd|secret|token|key|auth|cookie|session|sid|sig|cred|bearer|jwt/gi;
// [\w$@.-]
const isKeyChar = (code: number): boolean =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  code === 95 ||
  code === 36 ||
  code === 64 ||
  code === 46 ||
  code === 45;
const MAX_KEY = 64;
const XML_ELEMENT = /<(?<key>[A-Za-z_][\w.-]{0,63})>(?<value>[^<\n]{1,1024})<\/\k<key>>/dg;
const ZH_KEY = String.raw`密码|密碼|口令|密钥|密鑰|秘钥|私钥|私鑰|令牌|凭证|凭据|授权码`;
// `密码：x`, `密码是 x`, and with a weak joint (a space, or nothing) `密码 Xy7kLm9q2` / `密码Xy7kLm9q2`.
const ZH_KEY_VALUE = new RegExp(
  String.raw`(?<key>${ZH_KEY})(?<joint>\s*(?:[:=：]|(?:是|为|為)\s*[:：]?)\s*|\s*)(?<value>${VALUE})`,
  'dg',
);
const ZH_HINT = /密|口令|钥|鑰|令牌|凭|授权码/;

// scheme://user:password@host, user possibly empty; greedy up to the last `@` so `p@ss` is not cut in half,
// and `#` taken as written (passwords are pasted unencoded).
const URL_USERINFO =
  /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:/?#@]{0,256}:([^\s/?]{1,1024})@/g;

// A code reference (`this.password`, `access_token`, `getToken(user)`), not a literal.
const CODE_REFERENCE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[a-z]+(?:_[a-z]+)+$/;
const CODE_CALL = /^[A-Za-z_$][\w$.]*[([]/;
// After `Password:` these start a sentence, not a passphrase ("Password: please reset it").
const PROSE_START = new Set(
  (
    'a an the this that these it its is was are be been being please see same as in on at to for from by via ' +
    'use using reset forgot forgotten required needed missing changed updated expired incorrect wrong invalid ' +
    'unknown not no none n/a tbd todo ask check contact enter type provide must should will would can cannot ' +
    'do does did you your my our their his her we i they he she stored saved sent shared set given below above ' +
    'here there what which who how when where why if and or but so also only just still never always'
  ).split(' '),
);

export function scanCredentials(text: string, out: RedactionSpan[]): void {
  if (text.includes('://')) scanUrlPasswords(text, out);
  scanEnglishPairs(text, out);
  if (text.includes('</')) scanKeyValues(text, XML_ELEMENT, false, out);
  if (ZH_HINT.test(text)) scanKeyValues(text, ZH_KEY_VALUE, true, out);
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

interface KeyValue {
  key: SecretKey;
  value: string;
  /** The connector as written, whitespace included; undefined for an XML element. */
  joint: string | undefined;
  quoted: boolean;
  keyQuoted: boolean;
  chinese: boolean;
}

const MAX_LOOKS_INSIDE = 8;

/**
 * Where to scan on from a pair: after its secret, or inside a value that is none, for pairs within it
 * (`"dsn": "…;Password=x"`, `link: …?token=x`). A run of pairs chained without a separator (`sig=sig=…`) is
 * looked into a few times, not once per pair, which keeps scanning linear.
 */
function createResume(): (valueStart: number, valueEnd: number, secretEnd: number | undefined) => number {
  let insideEnd = -1;
  let looks = 0;
  return (valueStart, valueEnd, secretEnd) => {
    if (secretEnd !== undefined) return secretEnd;
    looks = valueStart < insideEnd ? looks + 1 : 0;
    insideEnd = Math.max(looks > 0 ? insideEnd : -1, valueEnd);
    return looks < MAX_LOOKS_INSIDE ? valueStart : insideEnd;
  };
}

function scanKeyValues(text: string, pattern: RegExp, chinese: boolean, out: RedactionSpan[]): void {
  const resume = createResume();
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const valueStart = match.indices?.groups?.value?.[0] ?? match.index + 1;
    const valueEnd = match.indices?.groups?.value?.[1] ?? valueStart;
    const next = resume(valueStart, valueEnd, keyValueSpan(text, match, valueStart, chinese, out));
    pattern.lastIndex = Math.max(next, match.index + 1);
  }
}

function scanEnglishPairs(text: string, out: RedactionSpan[]): void {
  const resume = createResume();
  let floor = 0;
  KEY_WORD.lastIndex = 0;
  for (let hit = KEY_WORD.exec(text); hit !== null; hit = KEY_WORD.exec(text)) {
    for (const start of keyStarts(text, hit.index, floor)) {
      EN_KEY_VALUE.lastIndex = start;
      const match = EN_KEY_VALUE.exec(text);
      if (!match) continue;
      // The value ends the match.
      const valueEnd = match.index + match[0].length;
      const valueStart = valueEnd - (match.groups?.value ?? '').length;
      floor = resume(valueStart, valueEnd, keyValueSpan(text, match, valueStart, false, out));
      KEY_WORD.lastIndex = Math.max(KEY_WORD.lastIndex, floor);
      break;
    }
  }
}

/**
 * Where a key holding the keyword at `at` may start, leftmost first: the word before its identifier (for
 * `api key`, `access key`) and the identifier itself, with an opening quote; never before `floor`.
 */
function keyStarts(text: string, at: number, floor: number): number[] {
  const starts: number[] = [];
  let end = at;
  for (let words = 0; words < 2; words++) {
    let start = end;
    while (start > floor && end - start <= MAX_KEY && isKeyChar(text.charCodeAt(start - 1))) start--;
    if (end - start > MAX_KEY || (words > 0 && start === end)) break;
    const quote = start - 1 >= floor && /["']/.test(text[start - 1] ?? '') ? 1 : 0;
    const escaped = quote && start - 2 >= floor && text[start - 2] === '\\' ? 1 : 0;
    starts.unshift(start - quote - escaped);
    if (text[start - 1] !== ' ' || start - 1 <= floor) break;
    end = start - 1;
  }
  return starts;
}

/** Pushes the span of a secret value and returns its end, or returns undefined. */
function keyValueSpan(
  text: string,
  match: RegExpExecArray,
  valueStart: number,
  chinese: boolean,
  out: RedactionSpan[],
): number | undefined {
  const groups = match.groups ?? {};
  const key = keyOf(groups.key ?? '');
  if (!key) return undefined;
  const raw = groups.value ?? '';
  const quote = /^\\?["'“]/.exec(raw)?.[0] ?? '';
  const value = quote ? unquote(raw, quote) : cutUnquoted(raw);
  const kv: KeyValue = {
    key,
    value,
    joint: groups.joint,
    quoted: quote !== '',
    keyQuoted: Boolean(groups.open),
    chinese,
  };
  let start = valueStart + quote.length;
  let end = start + value.length;
  if (!isCredentialValue(kv)) {
    const phrase = passphrase(kv, text, valueStart);
    if (!phrase) return undefined;
    [start, end] = [valueStart, valueStart + phrase.length];
  }
  const rule = chinese ? 'mnemo/key-value-zh' : 'mnemo/key-value';
  out.push({ type: key.type, rule, start, end, priority: PRIORITY_KEY_VALUE });
  return end;
}

// In prose only the last word names the secret ("my password", "reset link"), or the last two (`access key`).
function keyOf(key: string): SecretKey | null {
  if (!key.includes(' ')) return secretKey(key);
  const words = key.split(' ');
  const last = secretKey(words.at(-1) ?? '');
  const lastTwo = secretKey(words.slice(-2).join(' '));
  return /^keys?$/i.test(words.at(-1) ?? '') ? (lastTwo ?? last) : (last ?? lastTwo);
}

function unquote(raw: string, quote: string): string {
  const close = quote === '“' ? '”' : quote;
  const body = raw.slice(quote.length);
  return body.endsWith(close) ? body.slice(0, -close.length) : body;
}

// `a&state=1`, `x; Path=/`, `k, next=2`: a separator before another pair or a space ends the value; so does
// trailing punctuation, and a closing bracket that opens nowhere in the value.
function cutUnquoted(raw: string): string {
  const cut = /[&;,](?=\s|$|[A-Za-z_][\w.-]*=)/.exec(raw);
  const value = cut ? raw.slice(0, cut.index) : raw;
  const closing = /[.,:;')\]}>]+$/.exec(value);
  if (!closing) return value;
  const unclosed: Record<string, number> = {};
  for (const c of value.slice(0, closing.index)) {
    const closer = OPENERS[c];
    if (closer !== undefined) unclosed[closer] = (unclosed[closer] ?? 0) + 1;
  }
  let end = closing.index;
  // Keep the closers that close something, in order: `${X}` keeps its brace, `abc)` loses its bracket.
  for (const c of closing[0]) {
    if (!(c in CLOSERS) || !unclosed[c]) break;
    unclosed[c]--;
    end++;
  }
  return value.slice(0, end);
}

const CLOSERS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{', '>': '<' };
const OPENERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '<': '>' };

function isCredentialValue({ key, value, joint, quoted, keyQuoted, chinese }: KeyValue): boolean {
  if (!isSecretValue(key, value)) return false;
  if (joint === undefined) return true;
  // `secret:\n  secretName: x` opens a nested mapping; the next line is not the value.
  if (joint.includes('\n')) return false;
  const word = joint.trim();
  if (word.toLowerCase() === 'is' || word === '是' || word === '为' || word === '為') {
    return value.length >= 4 && (chinese || /\d/.test(value));
  }
  // `密码 x` / `密码x`: only a password-like ASCII value.
  if (chinese && word === '') return value.length >= 6 && /\d/.test(value) && !/\s/.test(value);
  if (!quoted && (CODE_CALL.test(value) || (CODE_REFERENCE.test(value) && !/\d/.test(value)))) return false;
  // Prose after `: ` ("Password: please reset it", "a secret: **dry brining**", `secret: "a sentence"`).
  if (!chinese && !keyQuoted && /^\s*[:：]\s+$/.test(joint)) {
    if (quoted) return key.strength === 'password' || !/\s/.test(value);
    const core = value.replace(/^[*_~]+|[*_~]+$/g, '');
    if (/^[A-Za-z]+$/.test(core)) return /[a-z]/.test(core) && /[A-Z]/.test(core.slice(1));
  }
  return true;
}

/** `Password: correct horse battery`: two to six words after a password key, unless they read as prose. */
function passphrase(kv: KeyValue, text: string, start: number): string | null {
  if (kv.key.strength !== 'password' || kv.quoted || kv.chinese || !/^\s*[:：]\s+$/.test(kv.joint ?? '')) {
    return null;
  }
  const line = /^[^\n]*/.exec(text.slice(start, start + 80))?.[0] ?? '';
  const sentence = /^.*?(?=[.!?。！？](?:\s|$))/.exec(line)?.[0] ?? line;
  const phrase = sentence.replace(/[\s.,;!?。，；！？]+$/, '');
  const words = phrase.split(/\s+/);
  if (line.length >= 80 || words.length < 2 || words.length > 6) return null;
  return PROSE_START.has((words[0] ?? '').toLowerCase()) ? null : phrase;
}
