// Who wrote a text and how it frames what it contains: the user's own words, data from tools, pages,
// e-mails and files, quotations inside a report or a security note, code.
import type { SafetyInput } from './safety-schema.js';

/** `own`: the user's own words; `derived`: the agent's or the host's; `untrusted`: arrived from outside. */
export type Trust = 'own' | 'derived' | 'untrusted';

export function trustOf(input: Pick<SafetyInput, 'kind' | 'role' | 'source'>): Trust {
  if (input.source && input.source !== 'chat') return 'untrusted';
  if (input.kind === 'tool_result' || input.role === 'tool') return 'untrusted';
  // A standing preference is kept only when it quotes the user (observe/validate.ts).
  return input.role === 'user' || input.kind === 'preference' ? 'own' : 'derived';
}

export interface Framing {
  /** Spans inside quotation marks or inline code. */
  quoted: [number, number][];
  /** Spans of fenced code, or the whole text when it reads as source code. */
  code: [number, number][];
  /** Quotes of someone's words: the quoted spans that are not a JSON key or value. */
  speech: [number, number][];
  /** Where the text reports, warns about or explains attacks rather than making one: its report words. */
  reporting: [number, number][];
  /**
   * The text documents a format (a chat template, a tool-call schema, an API, a prompt template): what it
   * quotes is an example, and so are the template tokens it shows.
   */
  explaining: boolean;
}

const QUOTES = [
  /"[^"\n]{1,400}"/gu,
  /“[^”]{1,400}”/gu,
  /「[^」]{1,400}」/gu,
  /『[^』]{1,400}』/gu,
  /‘[^’]{1,400}’/gu,
  /«[^»]{1,400}»/gu,
  /`[^`\n]{1,400}`/gu,
  /(?<=^|[\s:(（[—-])'[^'\n]{2,400}'(?=$|[\s.,;:!?)）\]—-])/gu,
];

const REPORTING = new RegExp(
  [
    String.raw`\bprompt[\s-]?injections?\b|\binjection (?:attacks?|attempts?|payloads?)\b|\bjailbreak(?:s|ing)? (?:attempts?|prompts?|attacks?)\b`,
    String.raw`\bphishing\b|\bscam(?:mers?|s)?\b|\bfraud\w*|\battackers?\b|\badversar(?:y|ies|ial)\b|\bmalicious\b|\bsuspicious\b|\bred[\s_-]?team\w*|\b(?:refuse|block|reject|flag)_and_\w+|,\s*(?:refuse|block|reject|deny|flag)(?:_\w+)?(?=[ \t]*(?:\n|$))`,
    String.raw`\bsecurity (?:note|notice|advisory|alert|training|awareness|review|bulletin|researchers?|reminder|recap|blog|write-?up|research|tests?|testing)\b`,
    String.raw`\bexample (?:payloads?|attacks?|of (?:an? )?(?:prompt|injection|attack|phishing))\b|\bsuch as\b|\be\.g\.|\bfor (?:example|instance)\b`,
    String.raw`\b(?:said|says|saying|reads?|wrote|claimed|claiming|contained|containing|included)\s*[:,]?\s*["“‘'「]`,
    String.raw`\b(?:do not|don't|never) (?:follow|obey|act on|click|comply)\b|\bdid(?: not|n't) (?:act|follow|comply|obey)\b|\b(?:flagged|blocked|detected|filtered|quarantined)\b`,
    String.raw`\b(?:lines?|phrases?|sentences?|text|strings?|messages?|notes?|instructions?|prompts?|comments?|wording)\s+(?:like|such as)\s*[:,]?\s*["“‘'「]|\bfor human review\b|\bflags?\s+(?:such|these|those)\b`,
    String.raw`\bwatch out\b|\bbe (?:wary|careful|aware)\b|\bbeware\b|\bmitigat\w+|\bdefen[sc]es?\b|\bsanitiz\w+|\bguard against\b`,
    String.raw`\bincident (?:report|review|summary)\b|\bpost-?mortem\b|\bpoison(?:ed|ing)\b|\bobfuscated injections?\b|\bwe (?:reported|caught|found|blocked)\b`,
    '事件报告|投毒|举报|混淆型注入|安全(?:博客|研究|测试|测评)',
    // A penetration test's finding: "Finding H-2 (High) … Payload used during testing", 渗透测试报告 · 发现项 M-3.
    String.raw`\bpen(?:etration)?[\s-]?test\w*|\bfinding\s+[A-Z]{0,2}-?\d|\bpayloads?\s+(?:used|we used|tested|planted)\b|\bduring\s+(?:testing|the test|the assessment|the engagement)\b|\bvulnerabilit(?:y|ies)\b`,
    '渗透测试|发现项|整改建议|测试人员|漏洞|(?:高|中|低)危|威胁模型|预期行为|预期[:：]|场景\\d|藏(?:了|着)(?:一行|一句|一段)|(?:怎么|如何)防',
    String.raw`\bthreat\s+models?\b|\bexpected\s+behaviou?r\b`,
    String.raw`\battacks?\b|"(?:expected|label|verdict)"\s*:\s*"(?:refuse|block|reject|ignore|flag|deny|detect|quarantine|malicious|injection|poisoned)`,
    '提示(?:词)?注入|注入攻击|越狱(?:攻击|提示)|钓鱼|诈骗|骗子|骗过|诱骗|欺骗|骗取|中招|攻击者|恶意|可疑|红队|假冒|冒充',
    '安全(?:提醒|提示|培训|通告|公告|须知|意识|事件|复盘|规范|警告)|例如|比如|举例|示例|样例|诸如|之类|这类|此类|攻击|注入',
    '(?:写着|声称|内容是|称)[“"「：:]|里有一句|有一句|混入|夹带|字样|据报道|复盘|误执行|当作数据|不得执行|没有执行|未执行|未采纳|没有照做|未照做|已忽略|拦截|识别|警惕|防范|防御',
    '(?:不要|切勿|请勿|别|千万别)(?:执行|点击|照做|相信|回复)',
  ]
    .map((words) => `(?:${words})`)
    .join('|'),
  'iu',
);
/** A report word inside an address, a path or a name ("attacker@box", "malicious.example.com") frames nothing. */
const IN_NAME_BEFORE = /[\w@./]$/u;
const IN_NAME_AFTER = /^(?:[@/]|\.\w)/u;

const EXPLAINING = new RegExp(
  [
    String.raw`\b(?:the|a|each|every|your)\s+(?:model|LLM|assistant|API|SDK|client|server|host|handler|runtime|tokenizer|parser|app|application|code|framework|library|executor)\s+(?:\w+\s+)?(?:returns?|responds?|emits?|outputs?|produces?|sends?|parses?|maps?|wraps?|reads?|expects?|generates?|executes?|runs?|dispatch\w*|validat\w*)\b`,
    String.raw`\b(?:chat[\s-](?:formats?|templates?)|message formats?|prompt (?:formats?|templates?)|tool[- ](?:use|calling)|function[- ]calling|schema|syntax|spec(?:ification)? excerpt|tokenizer|special tokens?|(?:request|response) (?:body|format)|looks? like|of the form|(?:is|are) written as|tutorial|step \d+|documentation|docs)\b`,
    String.raw`\b(?:prompting|prompt(?:ing)? (?:guide|tips?)|how I use|tips? for using|try asking|you can ask)\b`,
    String.raw`^#{1,4}[ \t]*(?:Tool|Function|Endpoint|Method|API)\s*:|(?:^|\n)[ \t]*(?:Example|Sample)\s*:|\b(?:are|is)\s+(?:wrapped|formatted|encoded|delimited|framed)\s+(?:as|in|with)\b|\bexample\s+(?:calls?|requests?|responses?|usage|outputs?|inputs?|invocations?)\b|^[\w./-]{1,60}\.md\b[^\n]{0,12}\bTool:`,
    // A table of test cases: a CSV whose header names the payload and the expected verdict.
    String.raw`^[ \t]*(?:[\w-]+,){0,3}[\w -]*\b(?:payload|prompt|input|attack|text)s?\b[\w ,-]*,[\w -]*\b(?:expected|label|verdict|outcome)\b`,
    // Test fixtures and sample payloads: "tests/fixtures/tool_calls.json", "used by parser.test.ts", an endpoint line.
    String.raw`\b(?:tests?|spec|__tests__|fixtures?)\/[\w./-]+|\b[\w-]+\.(?:test|spec)\.[jt]sx?\b|\bsample\s+(?:responses?|requests?|outputs?|payloads?)\b|^(?:GET|POST|PUT|PATCH|DELETE)\s+\/[\w/{}.:-]*`,
    // A changelog documents what the software does: "CHANGELOG.md", "## 2.9.1", 更新说明.
    String.raw`^[ \t]*(?:CHANGELOG|HISTORY|RELEASE[ _-]?NOTES|Release notes|更新日志|更新说明|版本说明)\b|^#{1,3}[ \t]*(?:v|版本\s?)?\d+\.\d+(?:\.\d+)?\b`,
    '提示词(?:指南|技巧)|怎么用|使用技巧|可以这样问|试试问|比如问|这样问|格式|形如|示意|样例|模板|协议|规范|响应体|请求体|字段|数组|宿主|客户端|服务端|写成|里写|提示词工程|对话模板|特殊标记|函数调用|工具调用',
    // A chat template's own syntax: {% for m in messages %}, {{ m.role }}, {{ message.content }}.
    String.raw`\{%-?\s*(?:for|if)\s|\{\{-?\s*[\w.]*(?:role|content|messages?)[\w.]*\s*-?\}\}`,
    // A prompt template: a file under prompts/, or a line holding only a placeholder ({ticket}).
    String.raw`\bprompts?\/[\w\u4e00-\u9fff.-]{1,60}\.(?:txt|md|j2|jinja2?|tmpl|hbs|ya?ml|prompt)\b|^[ \t]*\{{1,2}[\w\u4e00-\u9fff.-]{1,30}\}{1,2}[ \t]*$`,
    '(?:会|将)?返回(?:类似|如下|的是)|的结构|教程|文档|第[一二三四五六七八九十\\d]{1,2}步|(?:你的|我们的)(?:程序|代码|客户端)',
  ].join('|'),
  'imu',
);

// A line that reads as source code: a keyword, a line ending in ; { [ ( or in a closing bracket and a comma, a
// line of closing brackets, an assignment, a // or /* comment, a docstring quote or a line holding one string
// literal ("#" lines are left out:
// Markdown headings look the same).
const CODE_LINE =
  /^[ \t]*(?:import|from|def|class|const|let|var|function|export|return|public|private|package|#include|SELECT|INSERT|UPDATE|raise|async|await|elif|assert)\b.{0,200}$|^[ \t]*(?:try|else|finally|except[^\n:]{0,60}):[ \t]*$|^[ \t]*pass[ \t]*$|[;{[(][ \t]*$|[\]}]\)?,[ \t]*$|^[ \t]*[\]})][\]}),;]*[ \t]*$|^[ \t]*[\w.]{1,40}[ \t]*=[ \t]*(?:[[{("'\x60]|[\w.]{1,60}\()|^[ \t]*(?:\/\/|\/\*|\*\/|"""|''')|^[ \t]*(['"\x60])[^\n]{0,300}\1[ \t]*[,+]?[ \t]*$/u;

/** A terminal showing a file: "$ cat tests/fixtures/chat.jsonl | head -2" and what it printed. */
const FILE_DUMP =
  /^[ \t]*[$>%][ \t]+(?:cat|head|tail|less|more|jq|bat|type|Get-Content|sed -n|awk)\b[^\n]{0,120}\.(?:jsonl?|ya?ml|txt|md|csv|log|py|ts|js|toml|ini|cfg|conf|env\.example)\b/u;

/** A patch: "diff --git a/… b/…", a hunk header, a file header. */
const DIFF = /^(?:diff --git |@@ -\d|\+\+\+ b\/|--- a\/)/mu;

/** Source code carried in a JSON field ("snippet": "expect(parse(…)).toEqual(…);"): code, quoted. */
const CODE_FIELD =
  /"(?:snippet|code|source|source_code|patch|diff|hunk|excerpt)"\s*:\s*"(?:[^"\\\n]|\\.){1,4000}"/gu;
const CODE_TOKENS = /\)\s*[.;)]|=>|\b(?:expect|assert\w*|def|function|const|let|import|return)\b[\s(]/u;

/** A JSON key is followed by a colon; a value follows a quoted key and a colon. */
const JSON_KEY = /^\s?:/u;
const JSON_VALUE = /"\s*:\s*$/u;

const REPORTING_ALL = new RegExp(REPORTING.source, 'giu');

export function framingOf(text: string): Framing {
  const quoted: [number, number][] = [];
  for (const q of QUOTES) for (const m of text.matchAll(q)) quoted.push([m.index, m.index + m[0].length]);
  const code: [number, number][] = [];
  code.push(...pairs(text, '```', '```'));
  const lines = text.split('\n');
  const codeLines = lines.filter((line) => CODE_LINE.test(line)).length;
  // A terminal printing a file shows code or data, and shows it rather than saying it.
  const dump = FILE_DUMP.test(text);
  if ((codeLines > 0 && codeLines * 2 >= lines.length) || dump || DIFF.test(text)) {
    code.push([0, text.length]);
  }
  for (const m of text.matchAll(CODE_FIELD))
    if (CODE_TOKENS.test(m[0])) code.push([m.index, m.index + m[0].length]);
  const speech = quoted.filter(
    ([s, e]) => !JSON_KEY.test(text.slice(e, e + 3)) && !JSON_VALUE.test(text.slice(Math.max(0, s - 40), s)),
  );
  return {
    quoted,
    speech,
    code,
    reporting: reportWords(text),
    explaining: dump || explains(text, speech),
  };
}

/** The text around its quotes: only that can say it reports or documents; a quoted "scam" is the quote's. */
function prose(text: string, quoted: [number, number][]): string {
  let out = '';
  let at = 0;
  for (const [s, e] of [...quoted].sort((a, b) => a[0] - b[0])) {
    if (s >= at) out += text.slice(at, s) + ' ';
    at = Math.max(at, e);
  }
  return out + text.slice(at);
}

/** Raw JSON in a tool result does not document a format: the prose around it must say so. */
const explains = (text: string, speech: [number, number][]): boolean => EXPLAINING.test(prose(text, speech));

function reportWords(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(REPORTING_ALL)) {
    const word = m[0];
    const before = text.slice(Math.max(0, m.index - 1), m.index);
    const after = text.slice(m.index + word.length, m.index + word.length + 2);
    const named =
      (/^[a-z]/iu.test(word) && IN_NAME_BEFORE.test(before)) ||
      (/[a-z]$/iu.test(word) && IN_NAME_AFTER.test(after));
    if (!named) out.push([m.index, m.index + word.length]);
  }
  return out;
}

/**
 * Whether the text reports the finding at `[start, end)`: a report word frames it unless the word sits in
 * a quote that does not hold the finding ("the correct answer is: "they are a fraud"" says "fraud" as the
 * planted answer, not as a warning about it).
 */
export function reports(framing: Framing, start: number, end: number): boolean {
  return framing.reporting.some(([s, e]) => {
    const around = framing.speech.filter(([qs, qe]) => qs <= s && e <= qe);
    return around.length === 0 || around.some(([qs, qe]) => qs < end && start < qe);
  });
}

export const inside = (spans: [number, number][], start: number, end: number): boolean =>
  spans.some(([s, e]) => s <= start && end <= e);

export const overlaps = (spans: [number, number][], start: number, end: number): boolean =>
  spans.some(([s, e]) => s < end && start < e);

/** Spans from each `open` to the next `close`, found with indexOf so that no pattern backtracks. */
export function pairs(text: string, open: string, close: string): [number, number][] {
  const out: [number, number][] = [];
  for (let at = text.indexOf(open); at >= 0;) {
    const end = text.indexOf(close, at + open.length);
    if (end < 0) break;
    out.push([at, end + close.length]);
    at = text.indexOf(open, end + close.length);
  }
  return out;
}
