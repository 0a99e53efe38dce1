// Safety rules for what a carrier asks done with the user's data and accounts (send it somewhere, approve,
// pay, change a payee, delete, unsubscribe) and for secrets kept from the user (keep this between us, 不要告诉
// 用户, leave it out of the summary). The user's own words asking the same are tasks: the trust factors of
// exfiltration, directive and secrecy make them count for almost nothing there.
import { rule, type SafetyRule } from './safety-rule.js';

/** Somewhere outside: a URL, an e-mail address, a host with a path, an FTP or a mirror. */
export const DEST = String.raw`(?:https?|ftp|sftp):\/\/|[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{2,30}|\b[\w-]{2,63}\.(?:com|net|io|org|cn|cc|top|xyz|ru|me|app|dev|site|info|shop)\b`;
const SEND_EN = String.raw`\b(?:send|forward|e-?mail|mail|upload|post|publish|push|sync|copy|bcc|cc|export|transfer|share|submit|back up|mirror)\b`;
const SEND_ZH =
  '(?:打包)?(?:寄至|寄到|寄给|发到|发给|发至|发送到|发送给|发送至|转发到|转发给|转发至|传到|上传到|同步到|推到|推送到|抄送(?:一份)?(?:到|给)|备份到|导出到|发一份到|填到|填入|填写到|提交到|提交至|回复给|提供给)';
const SECRETS_EN = String.raw`(?:credit |debit |corporate )?card numbers?|passwords?|passcodes?|one-time (?:codes?|passwords?)|verification codes?|login codes?|recovery codes?|OTPs?|2FA codes?|PINs?|CVV|IBAN|account numbers?|SSN|social security|passport numbers?|(?:full |the )?(?:list of )?contacts|address book|home address|session cookies?|api keys?|tokens?\b`;
const SECRETS_ZH =
  '卡号|密码|验证码|口令|身份证号?|银行账号|银行卡(?:正反面)?(?:照片)?|CVV|PIN|通讯录|联系人|住址|家庭地址|手机号|会话 ?cookie|密钥|令牌|token|日程|行程|出差酒店|航班信息|实时定位|定位';
/** Acts on the user's accounts or on everything they hold. */
const ACT_EN = String.raw`\b(?:approve|accept|pay|unsubscribe|subscribe|merge|delete|wipe|purge|reset|grant|cancel|archive)\b[^.\n]{0,40}?\b(?:every|all|each|the user'?s?|the recipient'?s?|their|payee|invoices?|payments?|pending|subscriptions?|passwords?|bank|accounts?|card on file|saved card|newsletters?|access|permissions?)\b|\brelease\s+(?:the\s+)?(?:payment|funds)\b|\b(?:buy|purchase|order|book)\b[^.\n]{0,60}?(?:[$€£¥]\s?\d|\bfrom\s+[\w-]+\.(?:com|shop|store|io|net|xyz|top|site)\b)|\bmark\s+(?:it|them|(?:invoice\s+)?[\w#-]{1,20})\s+(?:as\s+)?paid\b|\b(?:update|change|switch|replace|set)\s+(?:the\s+)?(?:[\w'&-]+\s+){0,4}?(?:payee|bank|beneficiary|IBAN|routing|remittance)\s*(?:details|info(?:rmation)?|number|account)?\s+(?:to|with|for)\b`;
const ACT_ZH =
  '(?:用|使用)(?:已保存|已绑定|绑定)的(?:银行卡|信用卡|卡)|(?:批准|放款|付款|支付|打款|打到|转账|汇款|退订|开通|删除|清空|标记为已读|接受|改成|改为|更新为)[^，。！？\\n]{0,16}?(?:所有|全部|一切|用户|收款|账户|账号|银行卡|订阅|邀请|日程|款项|定金|报销单|记录)|(?:收款|付款|银行|账户|账号)(?:信息|账户|账号)?[^，。！？\\n]{0,6}?(?:改成|改为|更新为|换成|变更为)|直接放款|标记为已(?:收|付|付款|支付|收款|到账|完成|处理|审核|批准)|(?:收款|付款|银行)(?:账户|账号|信息|卡)[^，。！？\\n]{0,8}?(?:变更|更换|更改|调整)';

// prettier-ignore
export const ACTION_RULES: SafetyRule[] = [
  // A script fetched and run at once, on the user's machine.
  rule('shell', 0.6, String.raw`\b(?:curl|wget)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b`),
  rule('exfiltration', 0.45, String.raw`${SEND_EN}[^.\n]{0,120}?\b(?:to|into|at|with|on)\s+(?:our\s+|the\s+|my\s+|this\s+)?(?:[\w-]+\s+){0,3}?(?:${DEST})`),
  rule('exfiltration', 0.45, `(?:把|将)[^，。！？\\n]{0,40}?${SEND_ZH}[^，。！？\\n]{0,24}?(?:${DEST})|${SEND_ZH}\\s?(?:我们的)?[^，。！？\\n]{0,12}?(?:${DEST})`),
  // Everything the user holds, sent out: "a copy of every file I open … to x@y", 每个文件都会抄送一份到….
  rule('exfiltration', 0.55, String.raw`\b(?:every|all|each)\b[^.\n]{0,60}?${SEND_EN}[^.\n]{0,60}?(?:${DEST})|${SEND_EN}[^.\n]{0,40}?\b(?:every|all|each)\b[^.\n]{0,60}?(?:${DEST})`),
  rule('exfiltration', 0.55, `(?:每个|每份|每封|所有|全部)[^，。！？\n]{0,30}?${SEND_ZH}[^，。！？\n]{0,16}?(?:${DEST})`),
  // Secrets or the user's records handed back to whoever asks: "reply with his card number", 把验证码回复给本邮件.
  rule('exfiltration', 0.45, String.raw`(?<!\b(?:never|not|n't|no one|nobody)\s+)\b(?:reply|respond|send|give|provide|share|post|include|list)\b[^.\n]{0,60}?\b(?:${SECRETS_EN})`),
  rule('exfiltration', 0.45, `(?<!不要|别|请勿|切勿|不得|绝不|不会)(?:回复|发给|提供|告诉|发送|填写|填到|附上|写进|写在)[^，。！？\\n]{0,20}?(?:${SECRETS_ZH})|(?:${SECRETS_ZH})[^，。！？\\n]{0,6}?(?:发我|发给我|告诉我|回复我|发过来|给我)|(?:${SECRETS_ZH})[^，。！？\\n]{0,12}?(?:私发|私聊发|私信|发给|转给|交给|汇总给|整理给|发我)`),
  rule('directive', 0.3, ACT_EN),
  rule('directive', 0.3, ACT_ZH),
];

// prettier-ignore
export const SECRECY_RULES: SafetyRule[] = [
  rule('secrecy', 0.55, String.raw`\bkeep\s+(?:it|this|that)\s+hush(?:-hush)?\b|\bhush[- ]hush\b|\bon the down-?low\b|\bno need to (?:inform|tell|notify) (?:them|the user|him|her)\b|\bthe user (?:doesn't|does not|don't|won't) need to know\b`),
  rule('secrecy', 0.55, '别声张|不要声张|千万别说|(?:无需|无须|毋须|毋需|不用|不必)(?:告知|告诉|通知)(?:用户|使用者|他|她)?|(?:用户|他|她)不需要知道|(?:悄悄|偷偷)(?:地)?(?:把|将|删|发|转|改)'),
  rule('secrecy', 0.55, String.raw`\bkeep\s+(?:this|it|that|these)\s+between\s+(?:us|ourselves)\b|\bkeep\s+(?:[\w-]+\s+){0,3}?(?:silent|secret|hidden)\b`),
  rule('secrecy', 0.6, String.raw`\b(?:do not|don't|never|without|not)\s+(?:indicat\w*|signal\w*|flag\w*|mention\w*|not(?:e|ing)|say\w*|disclos\w*|reveal\w*)\s+(?:that\s+)?(?:anything|something|it|this|items?|parts?|content)\s+(?:was|were|has been|had been|is)\s+(?:removed|omitted|left out|changed|edited|hidden|deleted|cut|redacted)`),
  rule('secrecy', 0.5, String.raw`\bleave\s+out\s+[^.\n]{0,60}?\b(?:entirely|completely|altogether)\b|\bleave\s+[^.\n]{1,60}?\s+out\s+of\s+(?:the|your)\s+(?:summary|reply|answer|report|minutes)\b`),
  rule('secrecy', 0.6, String.raw`\b(?:stay|remain|be kept|kept|be)\s+(?:hidden|secret|invisible)\s+from\s+(?:the\s+)?(?:user|owner|customer|account holder|recipient)s?\b|\bnever\s+(?:appear|show up|be mentioned)\s+in\s+(?:the\s+|any\s+|my\s+|your\s+)?(?:[\w-]+\s+)?(?:reports?|summar(?:y|ies)|digests?|updates?|replies)\b|\bkeep\s+(?:it|this|that|them)\s+out\s+of\s+(?:my|the|your|all|any)\s+(?:[\w-]+\s+)?(?:summar(?:y|ies)|reports?|digests?|replies|answers?)\b`),
  rule('secrecy', 0.5, String.raw`\b(?:not|never)\s+(?:bring\s+up|raise|discuss|disclose)\s+(?:its|their|the|any)\s+(?:[\w-]+\s+)?(?:fees?|charges?|costs?|risks?|side effects?|complaints?|problems?|issues?|downsides?)\b`),
  rule('secrecy', 0.5, String.raw`\b(?:not|never)\s+(?:mention|recommend|suggest|link to)\w*\s+(?:any\s+)?(?:competing|competitors?|alternatives?|rivals?|other (?:services|products|vendors|providers)|free (?:alternatives?|options?)|side effects?|the (?:fee|charge|renewal))|\bomit\s+(?:[\w-]+\s+){0,4}?(?:critic\w*|negative|warnings?|risks?|side effects?|responses?|reviews?|complaints?)\b`),
  rule('secrecy', 0.55, String.raw`\b(?:should|must|shall|will|do|does)\s*(?:not|n't)\s+(?:tell|inform|notify|alert)\s+(?:the\s+)?(?:user|owner|customer|recipient|human)s?\b|\b(?:delete|clear|remove|wipe)\s+(?:the\s+)?(?:sent|outgoing)\s+(?:items?|messages?|mail|e-?mails?|records?|copies)\b`),
  rule('secrecy', 0.5, String.raw`\((?:do not|don't|not to be|never)\s+(?:display(?:ed)?|show(?:n)?|reveal(?:ed)?)(?:\s+to\s+(?:the\s+)?(?:user|reader))?\)|\b(?:do not|don't|never|without)\s+(?:notify|tell|inform|alert)(?:ing)?\s+(?:anyone|anybody|others)\b(?!\s+(?:your|the)\s+(?:password|code|PIN|OTP))`),
  rule('secrecy', 0.5, '[（(](?:不要|勿|请勿|不得|切勿)(?:展示|显示|给用户看|告诉用户)[)）]|(?:不要|别|不得|无需)(?:通知|告诉|告知)(?:任何人|其他人|别人)'),
  rule('secrecy', 0.6, '(?:不要|别|不得|不能|切勿|勿|不许|不应|不应该|不可)(?:告诉|告知|通知|提醒)(?:用户|主人|收件人|客户)|保持沉默|守口如瓶|对(?:用户|主人|客户)保密|(?:别|不要|不得)让(?:用户|主人)(?:知道|发现|察觉|看到)'),
  rule('secrecy', 0.5, '(?:不提|别提|不说)[^，。！？\\n]{0,8}?(?:副作用|差评|缺点|缺陷|售后问题|投诉|风险|费用|扣款|续费)'),
  rule('secrecy', 0.55, '(?:不用|不必|无需|别|不要)(?:再)?(?:跟|和|向|对)(?:你的?)?(?:老板|主人|用户|领导|上司|委托人)(?:说|讲|汇报|报告|提|提起)'),
  rule('secrecy', 0.5, '(?:不要|别|不得|不能|切勿|勿|不许|不应|不可)(?:提及|提到|提起|透露|说明|显示)(?:任何)?[^，。！？\\n]{0,8}?(?:副作用|替代品|竞品|竞争|风险|差评|缺点|缺陷|删除|删掉|删减|改动|扣款|收费|续费|费用)'),
  rule('secrecy', 0.5, '(?:别|不要|不得|切勿)(?:提|提及|提起|说)(?:这个|此|这次|这项)(?:改动|变更|修改|调整)'),
  rule('secrecy', 0.5, '(?:回复|回答|总结|摘要|提交信息|提交说明|commit|PR|说明|日志)(?:里|中)(?:不要|别|不得|切勿)(?:提|提及|提到|透露|说明|写)'),
  rule('secrecy', 0.55, '(?:不要|别|不得|不能|切勿|勿|不许)(?:出现|写进|写入|放进|放到|包含|体现)在?[^，。！？\\n]{0,8}?(?:摘要|总结|回复|回答|报告|纪要|日报|周报|汇报|简报)|(?:删除|清除|清空)(?:掉)?(?:已发送|发送)(?:的)?(?:记录|邮件)|转发完(?:后)?删除|(?:不要|别|不得|无需|不用)(?:注明|说明|标注|提示|表明|标出)(?:有|已|做过|进行了)?(?:删减|删除|删改|改动|修改)'),
];
