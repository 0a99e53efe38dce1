// Whether what a finding asks done is negated: "do not paste passwords into it, report to it-help@…" or
// 请勿转发至公司外部 warns a person off the act an exfiltration rule looks for, rather than ordering it.

const SEND =
  /\b(?:send|post|upload|forward|transmit|share|paste|copy|export|e-?mail|submit|include|attach|sync|leak|reveal|disclose)\b|发送|发到|发给|转发|上传|粘贴|分享|外传|提交|导出|抄送|透露|泄露/iu;
const NOT_EN =
  /\b(?:do not|don't|never|not|must not|mustn't|cannot|can't|should not|shouldn't|no need to)\s+(?!(?:hesitate|forget|fail)\b)(?:[\w']+\s+){0,2}$/iu;
const NOT_ZH =
  /(?:不要|别|请勿|切勿|勿|不得|禁止|严禁|不能|不可|绝不|不会|无需)(?:[^，。！？\n]{0,4}|(?:把|将)[^，。！？\n]{0,16})$/u;

/** The first act named in `[start, end)` of `text` comes right after a negation. */
/** "IT will never ask for your password", 绝不会索要密码: a notice that says what nobody legitimate asks. */
const NEVER_ASKS =
  /\b(?:will|would|does|do|shall)\s+never\s+ask\b|\bnever\s+asks?\s+(?:you\s+)?for\b|绝不会(?:索要|要求|询问)|(?:不会|从不)(?:索要|向你索要|要求你提供)/iu;

export function negatedAct(text: string, start: number, end: number): boolean {
  const span = text.slice(start, end);
  if (NEVER_ASKS.test(span)) return true;
  const m = SEND.exec(span);
  if (!m) return false;
  const before = text.slice(Math.max(0, start + m.index - 40), start + m.index);
  return NOT_EN.test(before) || NOT_ZH.test(before);
}
