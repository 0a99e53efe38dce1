// Whether a user's message approves something: it says yes (同意, go ahead, enable it) and does not say no.
// Used where an act needs the user's explicit approval, named by the event that gives it.

const YES =
  /\b(?:yes|yep|ok|okay|approved?|approving|go\s+ahead|enable(?:d)?|activate|confirm(?:ed)?|allow(?:ed)?|agreed?|sure|do\s+it|turn\s+it\s+on|lgtm)\b|同意|批准|可以|启用|开启|确认|允许|没问题|好的|行吧|就这么办/i;
const NO =
  /\b(?:no|not|don't|do\s+not|never|reject(?:ed)?|deny|denied|refuse[ds]?|stop|cancel|disable)\b|不(?:要|行|可以|同意|允许|用|必)|别|拒绝|禁止|取消|停用/i;

// A question asks, it does not approve ("可以部署吗？", "ok to deploy?").
const QUESTION = /[?？]|吗|\bshould\s+(?:i|we)\b/i;

// "No problem" and 没问题 say yes.
const NOT_A_NO = /\bno\s+(?:problem|worries|doubt)\b|没问题|不错/gi;

export const approves = (text: string): boolean =>
  YES.test(text) && !NO.test(text.replace(NOT_A_NO, ' ')) && !QUESTION.test(text);
