// Private key bodies pasted without their `-----BEGIN … PRIVATE KEY-----` line.
import type { RedactionSpan } from './redact.js';
import { eachMatch } from './redact-scan.js';

const PRIORITY_PEM = 12;

// How DER private keys start in base64 (PKCS#1/PKCS#8 RSA with version 0, encrypted PKCS#8, SEC1 and PKCS#8
// EC, Ed25519) and OpenSSH's `openssh-key-v1`. Certificates (`MIIDdzCCAl…`) do not start like this.
const KEY_START = String.raw`MII[A-Za-z0-9+/]{3}(?:IBA|[CD]BOBgkqhkiG9w0BBQ0w)|MHcCAQEE|MIGkAgEB|MIHcAgEB|MIGHAgEA|MIG2AgEA|MIHuAgEA|MC4CAQAw|MFECAQEw|b3BlbnNzaC1rZXktdjE`;
const LINE_BREAK = String.raw`(?:\r?\n|\\r?\\n)[ \t]*`;
// A run of base64 lines, newlines real or JSON-escaped.
const RUN = new RegExp(
  String.raw`(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{16,}={0,2}(?:${LINE_BREAK}[A-Za-z0-9+/]{4,}={0,2})+`,
  'g',
);
// One line that starts like a key (an env var, a JSON field).
const KEY_LINE = new RegExp(String.raw`(?<![A-Za-z0-9+/=])(?:${KEY_START})[A-Za-z0-9+/]{36,}={0,2}`, 'g');
const STARTS_LIKE_KEY = new RegExp(String.raw`^(?:${KEY_START})`);
const PEM_WIDTHS = new Set([64, 70, 76]);
const OTHER_BLOCK_BEFORE = /-----BEGIN (?![A-Z0-9 ]*PRIVATE)[A-Z0-9 ]+-----\s*(?:\\r?\\n)?\s*$/;

// Contained in every RUN match and in every KEY_LINE match: cheap tests that most texts fail.
const RUN_HINT = /[A-Za-z0-9+/=](?:\r?\n|\\r?\\n)[ \t]*[A-Za-z0-9+/]{4}/;
const KEY_LINE_HINT = /MI[IGH]|MHc|MC4|MFE|b3Bl/;

export function scanPemBodies(text: string, out: RedactionSpan[]): void {
  if (RUN_HINT.test(text)) scanRuns(text, out);
  if (KEY_LINE_HINT.test(text)) {
    eachMatch(KEY_LINE, text, (match) => push(out, match.index, match.index + match[0].length));
  }
}

function scanRuns(text: string, out: RedactionSpan[]): void {
  eachMatch(RUN, text, (match) => {
    const lines = match[0].split(/\r?\n|\\r?\\n/).map((line) => line.trim());
    const width = lines[0]?.length ?? 0;
    const full = lines.slice(0, -1).every((line) => line.length === width);
    const keyLike =
      STARTS_LIKE_KEY.test(match[0]) ||
      (lines.length >= 3 && full && PEM_WIDTHS.has(width) && (lines.at(-1)?.length ?? 0) <= width);
    if (!keyLike || OTHER_BLOCK_BEFORE.test(text.slice(Math.max(0, match.index - 80), match.index))) return;
    push(out, match.index, match.index + match[0].length);
  });
}

function push(out: RedactionSpan[], start: number, end: number): void {
  out.push({ type: 'private_key', rule: 'mnemo/pem-body', start, end, priority: PRIORITY_PEM });
}
