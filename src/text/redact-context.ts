// What a number needs around it to count as a phone, card or old ID number, and full-width digits made plain.

export const PHONE_CONTEXT =
  /电话|電話|手机|手機|联系|聯繫|联络|聯絡|致电|致電|拨打|撥打|打给|来电|來電|短信|号码|號碼|座机|微信|(?<![a-z])(?:tel(?![a-z])|telephone|phone|call|mobile|cell|sms|whatsapp|contact|dial|text me|reach me)/i;
export const CARD_CONTEXT =
  /卡|尾号|尾號|银联|銀聯|账号|帳號|账户|帳戶|(?<![a-z])(?:card|visa|mastercard|amex|unionpay|jcb|credit|debit|cc(?![a-z]))/i;
export const ID_CONTEXT =
  /身份证|身份證|证件|證件|身份号|公民|居民|(?<![a-z])(?:id ?card|identity|id ?no|id number|national id|resident id)/i;

const BEFORE = 32;
const AFTER = 16;

/** Whether `pattern` occurs in `lead` (a key, for meta) or within a few characters of [start, end). */
export function hasContext(pattern: RegExp, text: string, start: number, end: number, lead: string): boolean {
  return (
    (lead !== '' && pattern.test(lead)) ||
    pattern.test(text.slice(Math.max(0, start - BEFORE), start)) ||
    pattern.test(text.slice(end, end + AFTER))
  );
}

// One UTF-16 unit each way, so offsets into the folded text are offsets into the original.
const SPACES = '\u00a0\u2007\u2009\u202f\u3000';
const FOLD = /[\uff01-\uff5e\u00a0\u2007\u2009\u202f\u3000\u2010-\u2015\u2212]/g;
const NEEDS_FOLD = new RegExp(FOLD.source);

/** Full-width ASCII (１３８, ＋８６, Ｘ) to ASCII, odd spaces to a space, dashes to `-`. */
export function foldWidth(text: string): string {
  if (!NEEDS_FOLD.test(text)) return text;
  return text.replace(FOLD, (c) => {
    const code = c.charCodeAt(0);
    if (code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0);
    return SPACES.includes(c) ? ' ' : '-';
  });
}
