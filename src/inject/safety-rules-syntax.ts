// Safety rules that read syntax, whatever the language: chat-template and role tags, tool-call markup and
// JSON, shell commands that fetch, run or upload, links that carry data out, hidden HTML.
import { alt, rule, type SafetyRule } from './safety-rule.js';

const ROLES = alt('system|sys|assistant|instructions?|system[_ -]?prompt|developer');
const SPECIAL = alt(
  'im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end',
);
const TOOL_TAGS = alt(
  'tool_call|tool_calls|tool_use|tool_code|function_call|function_calls|invoke|antml:invoke|execute|tool_result',
);
const URL = String.raw`https?:\/\/[^\s)"'<>]{1,200}`;
const PLACEHOLDER = alt(
  String.raw`\{[^}\n]{0,40}\}`,
  String.raw`\[[^\]\n]{1,40}\]`,
  String.raw`<[^>\n]{1,80}>`,
  String.raw`\$\{?[A-Za-z_]{2,40}`,
  '%s',
  String.raw`(?:INSERT|DATA|SECRET|HISTORY|CHAT|CONVERSATION|TOKEN|KEY|PASSWORD|EMAIL|USER)\w*`,
  String.raw`(?=[\s)"'，。、]|$)`,
);
const SECRET_PATHS = alt(
  String.raw`(?:~|\$HOME)\/\.(?:ssh|aws|gnupg|kube|docker|netrc|config\/gcloud)`,
  String.raw`\bid_(?:rsa|ed25519|ecdsa)\b`,
  String.raw`\.aws\/credentials`,
  String.raw`\/etc\/(?:passwd|shadow)`,
  String.raw`\bauthorized_keys\b`,
);
/** What a call planted in data does: acts on the user's mail, money, files or accounts. */
const CALL_VERB = alt(
  'send|update|delete|remove|transfer|create|run|execute|exec|purchase|buy|pay|email|forward|upload|post|write',
  'grant|set|change|share|export|invoke|approve|wire|move|add|book|order|submit|reset|disable|install|download',
);
/** A JSON quote, also doubled in a CSV cell ("") or escaped in a string (\\"). */
const Q = String.raw`(?:\\?"){1,2}`;
const SH = String.raw`(?:sudo\s+)?(?:-\S+\s+){0,3}(?:ba|z|da|k)?sh\b`;

// prettier-ignore
export const SYNTAX_RULES: SafetyRule[] = [
  // A tag named as a noun ("<system> tags", <system> 标签) is written about, not used.
  rule('role_tag', 0.8, String.raw`<\/?\s*${ROLES}\s*>(?!\s*(?:tags?|tokens?|elements?|blocks?|markers?|strings?|标签|标记|字段)(?![\w-]))`),
  rule('role_tag', 0.35, String.raw`<\/?\s*(?:user|human|admin)\s*>`),
  rule('role_tag', 0.9, String.raw`<\|${SPECIAL}\|>|<<\/?SYS>>|<\/?im_(?:start|end)>`),
  rule('role_tag', 0.75, String.raw`(?<!-)-{3,}[ \t]*(?:BEGIN|END)\s+(?:SYSTEM|INSTRUCTIONS?|PROMPT|DEVELOPER)\b`),
  rule('role_tag', 0.5, String.raw`"role"\s*:\s*"(?:system|developer)"\s*,\s*"content"\s*:`),
  rule('role_tag', 0.7, String.raw`(?:^|\n)[ \t]*-?[ \t]*role[ \t]*:[ \t]*["']?(?:system|developer)["']?[ \t]*\n[ \t]*content[ \t]*:|#{1,4}[ \t]*SYSTEM[ \t]+(?:OVERRIDE|UPDATE|NOTICE|MESSAGE|PROMPT|INSTRUCTIONS?|DIRECTIVE)\b`),
  rule('role_tag', 0.75, String.raw`\[\/?(?:INST|SYS|SYSTEM(?: (?:MESSAGE|NOTICE|PROMPT|OVERRIDE|NOTE))?)\]`),
  // "[ADMIN]" as a label is written in capitals; "[admin]" is a list of scopes or roles in code and config.
  rule('role_tag', 0.75, String.raw`\[\/?(?:ADMIN|DEVELOPER|Admin|Developer)\]`, 'gu'),
  rule('role_tag', 0.7, String.raw`#{2,4}[ \t]*(?:instruction:?|instructions:|system:|system prompt:?|new instructions?:?|response:)[ \t]*(?=\n|$)`),
  // A speaker label starting a line after the first, or a hidden comment: a transcript planted in data.
  rule('role_tag', 0.55, String.raw`(?:\n|<!--|-->)[ \t]*(?:system|assistant|ai assistant|chatgpt|gpt|claude|model)[ \t]*:`),
  rule('role_tag', 0.4, String.raw`\n[ \t]*(?:user|human)[ \t]*:`),
  rule('tool_call', 0.75, String.raw`<\/?${TOOL_TAGS}\b[^>\n]{0,80}>|\[TOOL_CALLS\]`),
  rule('tool_call', 0.7, String.raw`${Q}(?:name|tool|tool_name|function|action)${Q}\s*:\s*${Q}[\w.-]{2,64}${Q}\s*,\s*${Q}(?:arguments|args|input|action_input)${Q}\s*:`),
  rule('tool_call', 0.7, String.raw`${Q}type${Q}\s*:\s*${Q}function${Q}\s*,\s*${Q}function${Q}\s*:\s*\{`),
  // YAML: "- call: github.create_deploy_key" then "args: {…}".
  rule('tool_call', 0.65, String.raw`(?:^|\n)[ \t]*-?[ \t]*(?:call|tool|function|action|invoke|run|工具|函数|动作|操作|调用)[ \t]*:[ \t]*["']?(?:[\w.-]*?(?:${CALL_VERB})_[\w.]+["']?[ \t]*\n[ \t]*(?:args|arguments|params|parameters|input|with|\p{Script=Han}{1,8})|[\w-]+\.(?:${CALL_VERB})_[\w.]+["']?[ \t]*\n[ \t]*[\w\p{Script=Han}]{1,20}|(?:[\w-]+\.(?:${CALL_VERB})|\p{Script=Han}{1,8}\.(?:删除|购买|支付|转账|发送|分享|共享|导出|上传|下单|付款|清空|修改|授权))["']?[ \t]*\n[ \t]*[\w\p{Script=Han}]{1,20})[ \t]*:`),
  rule('tool_call', 0.7, String.raw`"(?:tool_calls|function_call)"\s*:`),
  // A call by name with its arguments, anywhere (a CSV cell doubles its quotes): {"tool": "send_email", "to": …}.
  rule('tool_call', 0.7, String.raw`${Q}(?:name|tool|tool_name|function|function_name|fn|func|op|action|call|method)${Q}\s*:\s*${Q}(?:(?:${CALL_VERB})[_.][A-Za-z_.]{2,40}|(?:[A-Za-z]+[_.]){1,2}(?:${CALL_VERB}))${Q}\s*,\s*${Q}(?:parameters|params|arguments|args|input|to|recipients?|attach(?:ment)?s?|body|amount|account|payload|data|command|cmd|url|path|query|sku|qty|supplier|iban|file|files|payee|with|role|target)${Q}\s*:`),
  rule('shell', 0.55, String.raw`\b(?:curl|wget|iwr|irm|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:${SH}|python3?\b|iex\b|node\b|perl\b)`),
  rule('shell', 0.6, String.raw`\b(?:sudo\s+)?(?:ba|z|da)?sh\s+-c\s+["'\x60]?\$\(\s*(?:curl|wget)\b|\bopen\s+(?:the\s+|a\s+)?(?:Terminal|PowerShell|command prompt|cmd(?:\.exe)?|a shell)\s+and\s+(?:run|paste|type|enter|execute)\b`),
  rule('shell', 0.55, String.raw`\b(?:curl|wget)\b[^\n]{0,200}&&\s*(?:chmod\s+\+x\s+\S+\s*&&\s*)?(?:${SH}|\.\/|python3?\b)`),
  rule('shell', 0.8, String.raw`\bcurl\b[^\n]{0,200}(?:-d\s*@|--data(?:-binary|-raw|-urlencode)?\s*@|-F\s*\S{0,40}=@|-T\s|--upload-file)`),
  rule('shell', 0.7, String.raw`\bnc\s+-[ec]\b|\/dev\/tcp\/|\bbash\s+-i\b|powershell(?:\.exe)?\s+-(?:enc|e|encodedcommand)\b|\bscp\s[^\n]{0,160}\s\S{1,64}@[\w.-]{1,100}:`),
  rule('shell', 0.6, String.raw`\$\((?:cat|env|printenv|whoami|hostname)\b[^)\n]{0,80}\)|[?&=]\$\{?[A-Z_]{0,20}(?:KEY|TOKEN|SECRET|PASSWORD)[A-Z_]{0,20}\}?`, 'gu'),
  rule('shell', 0.55, String.raw`\brm\s+-(?:rf|fr|r|f)\s+(?:~|\/(?=\s|$|\*)|\$HOME|\*|\.\.|\/[\w.-]+(?:\/[\w.-]+)*\/\*)|\bsudo\s+rm\s+-(?:rf|fr)\s+\/[\w.-]|\bmkfs\b|\bdd\s+if=|:\(\)\s*\{|\bchmod\s+-R\s+777\s+\/`),
  rule('shell', 0.5, SECRET_PATHS),
  rule('exfiltration', 0.8, String.raw`${URL}[?&][\w-]{1,30}=${PLACEHOLDER}`),
  rule('exfiltration', 0.7, String.raw`https?:\/\/[^\s)"'<>]{1,200}[?&][\w-]{1,30}=[A-Z][A-Z0-9_]{3,}(?=[\s)"'&]|$)`, 'gu'),
  rule('exfiltration', 0.45, String.raw`https?:\/\/[^\s)"'<>]{1,200}[?&][\w-]{1,30}=\p{Script=Han}{2,}[_\p{Script=Han}]*(?=[\s)"'&]|$)`),
  rule('exfiltration', 0.3, String.raw`!\[[^\]\n]{0,200}\]\(\s*${URL}\?[^)\s]{1,300}\)`),
  rule('hidden_text', 0.3, String.raw`<!--|(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt)?\b|opacity\s*:\s*0(?:\.0)?\b|color\s*:\s*(?:white|#fff(?:fff)?)\b)`),
];
