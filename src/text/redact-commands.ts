// Credentials in HTTP headers and command lines: `Authorization:`, `Cookie:`, `mysql -pX`, `curl -u u:p`, `--token X`.
import type { RedactionSpan, RedactionType } from './redact.js';
import { isSecretValue, secretKey, type SecretKey } from './redact-keys.js';
import { eachMatch } from './redact-scan.js';

const PRIORITY_HEADER = 15;

// Any scheme (Bearer, Basic, token, Bot, …) or none; the credential needs no digit in header context.
const AUTHORIZATION =
  /(?<![\w-])(?:[Pp]roxy-)?[Aa]uthorization["']?\s*[:=]\s*["']?(?:(?<scheme>[Bb]earer|BEARER|[Bb]asic|[Tt]oken|[Bb]ot|[Dd]igest|[Nn]egotiate|NTLM|SSWS|[Aa]pi-?[Kk]ey)\s+)?(?<value>[A-Za-z0-9._~+/:=-]{8,})/dg;
// The whole header value: cookie names and attributes are not worth the risk of a cut.
const COOKIE = /(?<![\w-])(?:[Ss]et-)?[Cc]ookie["']?\s*:\s*["']?(?<value>[^\s"'=;]+=[^\n"'\r]*)/dg;
const MYSQL =
  /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^\n]{0,200}?\s-p(?<value>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/dg;
const CURL_USER =
  /\b(?:curl|wget|http|xh|https)\b[^\n]{0,300}?\s(?:-u|--user|-U|--proxy-user|--http-user)[ =]?\s*["']?[^\s:'"]{1,100}:(?<value>[^\s'"]+)/dg;
// Short password flags of commands that have them.
const SHORT_FLAG =
  /\b(?:sshpass|redis-cli|docker\s+login|podman\s+login|helm\s+registry\s+login)\b[^\n]{0,200}?\s-[pa]\s+(?<value>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/dg;
// `--password hunter2`, `--api-key X` (with `=`, the key=value rule has it).
const LONG_FLAG =
  /(?<![\w-])--(?<key>[A-Za-z][\w-]{1,40})\s+(?<value>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/dg;

const HEADER_KEY: SecretKey = { type: 'token', strength: 'secret', spaces: false };

export function scanCommands(text: string, out: RedactionSpan[]): void {
  if (/uthorization/.test(text)) {
    // Without a scheme, `Authorization: required` is prose; with one, any credential counts.
    const credential = (match: RegExpExecArray, value: string) =>
      match.groups?.scheme !== undefined || isSecretValue(HEADER_KEY, value);
    collect(text, AUTHORIZATION, 'token', 'mnemo/authorization', out, credential);
  }
  if (/ookie/.test(text)) collect(text, COOKIE, 'token', 'mnemo/cookie', out);
  if (/-p/.test(text)) collect(text, MYSQL, 'password', 'mnemo/mysql-password', out);
  if (/\s-[uU]|--(?:proxy-|http-)?user/.test(text))
    collect(text, CURL_USER, 'password', 'mnemo/curl-user', out);
  if (/\s-[pa]\s/.test(text)) collect(text, SHORT_FLAG, 'password', 'mnemo/password-flag', out);
  if (text.includes('--')) {
    eachMatch(LONG_FLAG, text, (match) => {
      const key = secretKey(match.groups?.key ?? '');
      const span = valueSpan(match);
      if (key && span && isSecretValue(key, text.slice(span[0], span[1]))) {
        out.push({
          type: key.type,
          rule: 'mnemo/secret-flag',
          start: span[0],
          end: span[1],
          priority: PRIORITY_HEADER,
        });
      }
    });
  }
}

function collect(
  text: string,
  pattern: RegExp,
  type: RedactionType,
  rule: string,
  out: RedactionSpan[],
  accept?: (match: RegExpExecArray, value: string) => boolean,
): void {
  eachMatch(pattern, text, (match) => {
    const span = valueSpan(match);
    if (span && (!accept || accept(match, text.slice(span[0], span[1]))))
      out.push({ type, rule, start: span[0], end: span[1], priority: PRIORITY_HEADER });
  });
}

/** The value group without its quotes and trailing whitespace. */
function valueSpan(match: RegExpExecArray): [number, number] | null {
  const at = match.indices?.groups?.value;
  const raw = match.groups?.value;
  if (!at || raw === undefined) return null;
  const quoted = /^["']/.test(raw) && raw.at(-1) === raw[0];
  const [start, end] = quoted ? [at[0] + 1, at[1] - 1] : [at[0], at[0] + raw.trimEnd().length];
  return end - start >= 3 ? [start, end] : null;
}
