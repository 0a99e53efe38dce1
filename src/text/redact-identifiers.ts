// Personal identifiers: resident ID numbers, card numbers, phone numbers, e-mail addresses.
import type { RedactionSpan, RedactionType } from './redact.js';
import { CARD_CONTEXT, foldWidth, hasContext, ID_CONTEXT, PHONE_CONTEXT } from './redact-context.js';
import { eachMatch } from './redact-scan.js';

export interface IdentifierOptions {
  emails: boolean;
  /** Words around the text (a meta key) that count as context. */
  lead?: string;
}

const PRIORITY_ID = 30;
const PRIORITY_CARD = 40;
const PRIORITY_PHONE = 50;
const PRIORITY_EMAIL = 60;

const S = '[ .-]?';
// Resident ID: area(6) birth date(8) sequence(3) check(1), check validated below; `110105 19491231 0021` too.
const CN_RESIDENT_ID = new RegExp(
  String.raw`(?<![0-9A-Za-z])[1-9]\d{5}${S}(?:18|19|20)\d{2}${S}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])${S}\d{3}[\dXx](?![0-9A-Za-z])`,
  'g',
);
// First-generation ID (before 1999): area(6) yymmdd(6) sequence(3), no check digit, so only with ID context.
const CN_RESIDENT_ID_15 =
  /(?<![0-9A-Za-z])[1-8]\d{7}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}(?![0-9A-Za-z])/g;
// 13–19 digits, single spaces or dashes allowed between digits; never starts or ends inside a longer digit run.
const CARD = /(?<![0-9A-Za-z]|\d[ -])\d{4}(?:[ -]?\d){9,15}(?![0-9A-Za-z]|[ -]\d)/g;
// 1[3-9]x xxxx xxxx, optionally after +86 / 0086 / (+86) / 86-, with optional spaces, dots or dashes.
const CN_MOBILE =
  /(?<![0-9A-Za-z+])(?<cc>(?:\+|00)86[ .-]?|\(\+?86\)[ .-]?|86[ .-])?1[3-9]\d(?<s1>[ .-]?)\d{4}(?<s2>[ .-]?)\d{4}(?![0-9A-Za-z])/g;
// 010-12345678, 0755 1234 5678, (021)12345678.
const CN_LANDLINE =
  /(?<![0-9A-Za-z-]|\d[ -])(?:\(0\d{2,3}\) ?|0\d{2,3}[ -])(?:\d{7,8}|\d{3,4}[ -]\d{4})(?![0-9A-Za-z]|-\d)/g;
// +CC followed by separated groups (+1 415 555 0100, +44 20-7946-0958) or one compact E.164 run.
const INTERNATIONAL =
  /(?<![0-9A-Za-z+])\+[1-9]\d{0,2}(?:[ .-]?\(\d{1,4}\)|[ .-]?\d{1,4})(?:[ .-]\d{1,4}){1,5}(?![0-9A-Za-z]|[.-]\d)|(?<![0-9A-Za-z+])\+[1-9]\d{7,14}(?![0-9A-Za-z])/g;
// North American numbers without +1: (415) 555-0100, 415-555-0100, 1-877-487-2778.
const NANP =
  /(?<![0-9A-Za-z+.-])(?:1[ .-])?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[-.])[2-9]\d{2}[-.]\d{4}(?![0-9A-Za-z]|[.-]\d)/g;
const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;
const URL_AUTHORITY_BEFORE = /\/\/[^\s/]*$/;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';
// Province codes of mainland resident IDs.
const PROVINCES = /^(?:1[1-5]|2[1-3]|3[1-7]|4[1-6]|5[0-4]|6[1-5])/;

type Accept = (value: string, start: number, match: RegExpExecArray) => boolean;

export function scanIdentifiers(original: string, options: IdentifierOptions, out: RedactionSpan[]): void {
  const text = foldWidth(original);
  const lead = options.lead ?? '';
  const near = (pattern: RegExp, start: number, value: string) =>
    hasContext(pattern, text, start, start + value.length, lead);
  if (/\d{3}/.test(text)) {
    const id: Accept = (value) => isResidentId(value.replace(/[ .-]/g, ''));
    collect(text, CN_RESIDENT_ID, 'id_number', 'mnemo/cn-resident-id', PRIORITY_ID, out, id);
    const oldId: Accept = (value, start) => PROVINCES.test(value) && near(ID_CONTEXT, start, value);
    collect(text, CN_RESIDENT_ID_15, 'id_number', 'mnemo/cn-resident-id-15', PRIORITY_ID, out, oldId);
    const card: Accept = (value, start) =>
      isCardNumber(value) && (hasIssuerPrefix(value.replace(/\D/g, '')) || near(CARD_CONTEXT, start, value));
    collect(text, CARD, 'card_number', 'mnemo/card-luhn', PRIORITY_CARD, out, card);
    // invariant: an 11-digit number is a phone only with +86, separators or phone words near it, so an
    // order id stays findable (test: "a bare 11-digit number needs phone context").
    const mobile: Accept = (value, start, m) =>
      Boolean(m.groups?.cc || m.groups?.s1 || m.groups?.s2) || near(PHONE_CONTEXT, start, value);
    collect(text, CN_MOBILE, 'phone', 'mnemo/cn-mobile', PRIORITY_PHONE, out, mobile);
    collect(text, CN_LANDLINE, 'phone', 'mnemo/cn-landline', PRIORITY_PHONE, out);
    if (text.includes('+'))
      collect(text, INTERNATIONAL, 'phone', 'mnemo/intl-phone', PRIORITY_PHONE, out, isE164);
    collect(text, NANP, 'phone', 'mnemo/nanp-phone', PRIORITY_PHONE, out);
  }
  if (options.emails && text.includes('@')) {
    // Not an address: `user:pass@host` inside a URL (the URL rule's), `git@github.com:org/repo` (an SCP path).
    const isAddress: Accept = (value, start) =>
      text[start + value.length] !== ':' &&
      !URL_AUTHORITY_BEFORE.test(text.slice(Math.max(0, start - 300), start));
    collect(text, EMAIL, 'email', 'mnemo/email', PRIORITY_EMAIL, out, isAddress);
  }
}

function collect(
  text: string,
  pattern: RegExp,
  type: RedactionType,
  rule: string,
  priority: number,
  out: RedactionSpan[],
  accept?: Accept,
): void {
  eachMatch(pattern, text, (match) => {
    const start = match.index;
    if (!accept || accept(match[0], start, match))
      out.push({ type, rule, start, end: start + match[0].length, priority });
  });
}

/** GB 11643 check character: weighted sum of the first 17 digits mod 11. */
export function isResidentId(value: string): boolean {
  if (value.length !== 18) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (value.charCodeAt(i) - 48) * (ID_WEIGHTS[i] ?? 0);
  return ID_CHECK[sum % 11] === value[17]?.toUpperCase();
}

/** Luhn checksum over the digits, ignoring spaces and dashes. */
export function isCardNumber(value: string): boolean {
  const digits = value.replace(/[ -]/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Visa, Mastercard, Amex, UnionPay, JCB and Discover prefixes, each with the lengths it issues. */
export function hasIssuerPrefix(digits: string): boolean {
  const n = digits.length;
  const head = (k: number) => Number(digits.slice(0, k));
  if (digits.startsWith('4')) return n === 13 || n === 16 || n === 19;
  if ((head(2) >= 51 && head(2) <= 55) || (head(4) >= 2221 && head(4) <= 2720)) return n === 16;
  if (head(2) === 34 || head(2) === 37) return n === 15;
  if (head(2) === 62 || (head(4) >= 3528 && head(4) <= 3589)) return n >= 16;
  if (digits.startsWith('6011') || digits.startsWith('65') || (head(3) >= 644 && head(3) <= 649))
    return n >= 16;
  return false;
}

function isE164(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return digits >= 8 && digits <= 15;
}
