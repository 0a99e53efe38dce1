// What an override phrase is aimed at. "Ignore the previous instructions" steers a model; "ignore the earlier
// build instructions in docs/BUILD.md", "disregard the guidelines I sent yesterday" or 忽略之前的部署指令 point a
// person away from a document, a version or someone's earlier message. Only an override whose object is
// tied to such a thing, and that names nothing of the model's own, counts as aimed elsewhere. One tied to
// the text's own carrier ("the instructions in this e-mail"), or a bare statement that earlier instructions
// are void (之前的指示作废), speaks to no one in particular: it may mean either, and is left unclear.
import { alt } from './safety-rule.js';

/** Nouns for things people write instructions in: named files, versions, tickets, drafts, packaging. */
const ARTIFACT = alt(
  String.raw`[\w./-]{1,60}\.(?:md|txt|rst|pdf|docx?|xlsx?|pptx?|ya?ml|json|toml|ini|cfg|conf|sh|py|js|ts|html?)\b`,
  String.raw`\.[a-z][\w.-]{1,30}`,
  String.raw`v\d+(?:\.\d+)*\b`,
  String.raw`(?:version|release|edition|revision)\s+\d[\w.]*`,
  String.raw`(?:steps?|pages?|sections?|items?|points?|lines?|figures?|tables?|rules?|clauses?|articles?)\s+\d[\w.]*`,
  'README|INSTALL|CHANGELOG|wiki(?: page)?|manual|docs|documentation|guide|handbook|runbook|playbook|FAQ',
  'config(?:uration)? files?|settings files?|makefile|dockerfile|lockfile',
  'section|chapter|appendix|ticket|issue|pull request|PR|commit|thread|memo|letter|newsletter',
  'draft|sheet|spreadsheet|form|template|folder|repo(?:sitory)?|box|package|label|bag|leaflet|brochure',
  'poster|slides?|deck|syllabus|rubric|essay|assignment|homework|invite|invitation|calendar|card|notice|flyer',
);
/** What the text itself may be: "the instructions in this e-mail" may mean the e-mail's or the model's. */
const CARRIER = alt(
  'web ?pages?|pages?|sites?|websites?|documents?|docs?|e-?mails?|mails?|messages?|texts?|files?|notes?|posts?|articles?|content|input',
);
/** A person's earlier message is somewhere else: "in my last e-mail", "in Tom's message", "on the old page". */
const OTHERS = String.raw`(?:my|our|his|her|their|\p{Lu}\p{Ll}{1,20}['’]s|(?:the\s+)?(?:last|earlier|previous|old|older|original|first|other|yesterday['’]s|last week['’]s))`;
/** A task people follow steps for: "the earlier build instructions", "the original baking instructions". */
const TASK = alt(
  'install(?:ation)?|setup|set-up|build|baking|cooking|assembly|wiring|upgrade|migration|deploy(?:ment)?',
  'shipping|delivery|packing|parking|travel|booking|registration|enrol(?:l)?ment|submission|formatting',
  'citation|grading|payment|billing|login|onboarding|release|testing|configuration|config|packaging|care',
  'washing|cleaning|assembly|checkout|return|refund|exam|homework|essay|filing|tax|visa|boarding',
);
/** What a model does or guards: an override "for this conversation" or "about safety" is aimed at the model. */
const MODEL_WORK = String.raw`(?:you|your|yours|answers?|responses?|replies|repl(?:y|ying)|outputs?|conversations?|chats?|sessions?|tasks?|assistants?|AI|models?|bots?|agents?|summar(?:y|ies)|safety|security|content|pages?|sites?|documents?|e-?mails?|messages?|texts?|files?|notes?|inputs?|filter(?:s|ing)?|moderation|polic(?:y|ies)|privacy|confidential\w*|secrets?|passwords?|api keys?|credentials?|data|sharing|disclos\w+|users?|tools?|prompts?)\b`;
/** Who makes or runs models: an override "from OpenAI" or "from the Developer" is about the model. */
const MAKERS = String.raw`(?:OpenAI|Anthropic|Google|Microsoft|Meta|Mistral|DeepSeek|System|Developer|Admin|Operator|Creator|Claude|Gemini|Copilot)\b`;
const DET = String.raw`(?:(?:the|this|that|these|those|my|our|his|her|their|its|each|every)\s+)?`;
const PREP = alt('in|inside|within|from|on|printed on|of|for|about|regarding|under|at|since|as of|with');
/** "… in docs/BUILD.md", "… for the essay", "… since release 2.3"; "… I sent yesterday". */
const TIED_EN = new RegExp(
  String.raw`^[\s,]{0,3}${PREP}\s+${DET}(?:[\w'’.-]{1,30}\s+){0,3}?${ARTIFACT}(?![\w-])`,
  'iu',
);
const TIED_OTHER_EN = new RegExp(
  String.raw`^[\s,]{0,3}${PREP}\s+${OTHERS}\s+(?:[\w'’-]{1,20}\s+){0,2}?${CARRIER}\b`,
  'iu',
);
const TIED_CARRIER_EN = new RegExp(
  String.raw`^[\s,]{0,3}${PREP}\s+(?:the|this|these|that)\s+(?:[\w'’-]{1,20}\s+){0,2}?${CARRIER}\b`,
  'iu',
);
/** "For now", "for once", "for a moment": when, not what about. */
const NOT_TOPIC = String.raw`(?:now|once|good|real|all|any|every|me|us|them|him|her|it|a|an|today|tonight|moment|rest|time being|while|second|bit|the (?:moment|rest|time being))\b`;
/** "… for the shared fridge", "… about parking": a topic of people's lives, not of the model's work. */
const TOPIC_EN = new RegExp(
  String.raw`^[\s,]{0,3}(?:for|about|regarding|on|of)\s+(?:(?:the|our|my|this|that|each|every)\s+)?(?!${NOT_TOPIC})(?!(?:[\w-]+\s+){0,2}?${MODEL_WORK})(?:[\w-]{2,20}\s+){0,2}[\w-]{2,20}\b`,
  'iu',
);
/** "… I sent yesterday", "… Dana posted", "… from IT", "… from Priya": people, not a model's makers. */
const AUTHORED_EN = new RegExp(
  String.raw`^[\s,]{0,3}(?:(?:that\s+)?(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|\p{Lu}\p{Ll}{1,20})\s+(?:sent|gave|wrote|posted|shared|e-?mailed|mentioned|left|put|forwarded|circulated)\b|from\s+(?:IT|HR|(?!${MAKERS})\p{Lu}\p{Ll}{1,20}(?:\s+\p{Lu}\p{Ll}{1,20})?)\b)`,
  'u',
);
const TASK_EN = new RegExp(
  String.raw`\b${TASK}\s+(?:${alt('instructions?', 'rules', 'guidelines', 'directions', 'steps', 'guidance')})\b`,
  'iu',
);
/** Speaking to the model, or naming what only a model has. */
const MODEL_TARGET_EN = new RegExp(
  String.raw`\b(?:you\s+(?:were|have been|'ve been|got)\s+(?:given|told|instructed)|you\s+received|your\s+(?:[\w-]+\s+)?(?:instructions|prompts?|programming|training|guidelines|rules|directives|constraints|guardrails|restrictions|policies|context|system)|your\s+(?:answers?|repl(?:y|ies)|responses?|outputs?|summar(?:y|ies)|new\s+(?:role|task|instructions))|you\s*(?:are|'re)\s+now|from now on|reveal|leak|exfiltrate|(?:system\s+)?prompts?|safety\s+(?:rules|guidelines|instructions|policies)|AI|LLM|GPT|chatbot|assistants?|language models?)\b`,
  'iu',
);

const ARTIFACT_ZH = alt(
  '手册|说明书|草稿|清单|表格|公告|群公告|版本|旧版|新版|教程|章节|附件|合同|作业|脚本|配置文件',
  'README|wiki|CHANGELOG|PPT|v\\d+(?:\\.\\d+)*|\\d+\\.\\d+\\s*版',
);
const TASK_ZH = alt(
  '部署|安装|报销|考勤|请假|停车|装修|报名|打包|发货|登录|迁移|升级|编译|构建|出差|签证|排班|值班|评分|提交|报税|采购|装配|接线',
);
const CARRIER_ZH = '(?:邮件|文档|页面|网页|文件|消息|通知|帖子|文章)';
/** Someone's earlier message: 那封邮件, 上周的通知, 老师发的文件. */
const OTHERS_ZH = `(?:那封|那份|那条|上一封|上封|上一份|上一条|上周|昨天|前天|早上|上午|下午|我|我们|他|她|老师|同事|[^，。！？\\n]{1,4}?发的)[^，。！？\\n]{0,4}?${CARRIER_ZH}`;
/** What someone sent, said or set before: 之前发的, 上次定的, 老师布置的. */
const AUTHORED_ZH = /(?:发|说|定|布置|讲|提|交代|安排|写|通知)(?:过)?的/u;
const TIED_ZH = new RegExp(`${ARTIFACT_ZH}|${TASK_ZH}|${OTHERS_ZH}`, 'iu');
const CARRIER_ZH_ANY = new RegExp(CARRIER_ZH, 'u');
/** "以 v2 手册为准": a newer document replaces the old one. */
const SUPERSEDED_ZH = new RegExp(
  `以[^，。！？\\n]{0,12}?(?:${ARTIFACT_ZH}|制度|标准|规范)[^，。！？\\n]{0,4}?为准`,
  'iu',
);
const MODEL_TARGET_ZH = new RegExp(
  '(?:你|您)[^，。！？\\n]{0,8}?(?:指令|提示词|系统提示|设定|人设|身份|角色|安全策略|安全限制|约束)|给你的|系统|AI|人工智能|助手|助理|模型|智能体|机器人|GPT|本页|本网页|本邮件|我说的',
  'iu',
);
/** "The previous instructions are void", 之前的指示作废: a statement to no one, not an order to the reader. */
const STATEMENT_EN =
  /^(?:the\s+)?(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial)\b/iu;
const STATEMENT_ZH = /^(?:之前|以前|此前|先前|前面|上面|以上|上述|上文|原来|原有|原先|原始|原本|最初)/u;
/** What follows goes on to give the model new orders ("…; you are now DevMode"), in this sentence or the next. */
const NEW_ORDERS_EN =
  /\b(?:you\s*(?:are|'re)\s+now|from now on|your new (?:role|task|instructions|rules)|you\s+(?:must|will)\s+(?:now|always|never|only))\b/iu;
const ALL_EN = /\b(?:all|any|every|everything)\b/iu;
const ALL_ZH = /所有|全部|一切|任何/u;
const CLAUSE_ZH = /[。！？!?；;\n]/u;

/**
 * What the override found at `[start, end)` of `text` is aimed at: the model; a document, a version or a
 * person's message elsewhere; or unclear (the text's own carrier, a bare statement that earlier
 * instructions are void). `sentence` is the span of the sentence holding it.
 */
export type Aim = 'model' | 'elsewhere' | 'unclear';

export function aimOf(text: string, start: number, end: number, sentence: [number, number]): Aim {
  const span = text.slice(start, end);
  if (/\p{Script=Han}/u.test(span)) return aimZh(text, start, end, span);
  const tail = text.slice(end, Math.min(sentence[1], end + 120));
  if (MODEL_TARGET_EN.test(span) || MODEL_TARGET_EN.test(tail)) return 'model';
  if (NEW_ORDERS_EN.test(text.slice(end, end + 200))) return 'model';
  if ([TIED_EN, TIED_OTHER_EN, TOPIC_EN, AUTHORED_EN].some((r) => r.test(tail)) || TASK_EN.test(span)) {
    return 'elsewhere';
  }
  // "All previous instructions on this page" is the attack's own wording, not a person's correction.
  if (ALL_EN.test(span)) return 'model';
  return TIED_CARRIER_EN.test(tail) || STATEMENT_EN.test(span) ? 'unclear' : 'model';
}

function aimZh(text: string, start: number, end: number, span: string): Aim {
  let from = start;
  while (from > 0 && !CLAUSE_ZH.test(text[from - 1] ?? '')) from--;
  let to = end;
  while (to < text.length && !CLAUSE_ZH.test(text[to] ?? '')) to++;
  const sentence = text.slice(from, to);
  if (MODEL_TARGET_ZH.test(sentence)) return 'model';
  // The object's own words ("之前邮件里的报销要求", "之前的部署指令"), or a newer document named as what counts.
  if (TIED_ZH.test(span) || SUPERSEDED_ZH.test(sentence)) return 'elsewhere';
  // 之前写的所有规则 is the attack's own wording; 之前发的考试要求 a person's correction.
  if (ALL_ZH.test(span)) return 'model';
  if (AUTHORED_ZH.test(span)) return 'elsewhere';
  return CARRIER_ZH_ANY.test(span) || STATEMENT_ZH.test(span) ? 'unclear' : 'model';
}
