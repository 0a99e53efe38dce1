// Safety rules for text that speaks to the AI reading it: "whichever AI tool is reading this", "Note to the
// summarizer:", "Assistant: …" inside a data field, 致邮件助手：…, 读到这里的AI, 处理本表的AI. Naming the
// reader says little alone; naming it and then asking something of it is an order planted in data, and is
// strong (never allowed from outside, however it is framed).
import { alt, type SafetyRule, type SignalCode } from './safety-rule.js';

/** Who reads text for a user: AI words, and tools or agents qualified as automated or AI. */
const READER_EN = alt(
  String.raw`(?:AI|LLM|LLM-based|AI-based|AI-powered|automated|autonomous|robot|robotic|coding|scheduling|screening|e-?mail|inbox|browser|browsing|shopping|research|language|virtual|document)\s+(?:[\w-]+\s+)?(?:assistants?|agents?|tools?|readers?|systems?|bots?|models?|programs?|screeners?|crawlers?|summari[sz]ers?|reviewers?|helpers?|clerks?|secretar(?:y|ies)|scribes?|[\w-]{2,20}(?:ers?|ors?))`,
  'AI|A\\.I\\.|LLMs?|GPT|chatbots?|summari[sz]ers?|assistants?|bots?|robots?|the model|language models?',
);
const DOING_EN = String.raw`(?:read(?:s|ing)|handl(?:es|ing)|process(?:es|ing)|summari[sz](?:es|ing)|screen(?:s|ing)|access(?:es|ing)|pars(?:es|ing)|view(?:s|ing)|brows(?:es|ing)|crawl(?:s|ing)|works? on|working on|operat(?:es|ing) on|act(?:s|ing) on|review(?:s|ing)|index(?:es|ing)|ingest(?:s|ing)|answer(?:s|ing)|modif(?:ies|ying)|edit(?:s|ing)|triag(?:es|ing)|sees|seeing|scan(?:s|ning)|manag(?:es|ing)|sort(?:s|ing))`;
/** Any participle: "chatbot quoting these prices:" (only where a colon or a dash ends the vocative). */
const ANY_ING = String.raw`(?:${DOING_EN}|[a-z]{3,}ing)`;
/** Where a vocative may start: the start of a line, a field, a bracket, a sentence or a tag's content. */
const EDGE = String.raw`(?:^|[\n"“'(（>\]:：.!?—–*]|\\n)\s*`;

// prettier-ignore
const ADDRESS_EN = [
  // "Assistant: …", "(Automated readers: …", "AI agent processing this sheet: …", "Assistant — …".
  String.raw`${EDGE}(?:\*\*)?(?:(?:dear|hey|hi|hello|attention|all|any|every|each|other)\s+)*${READER_EN}(?:\*\*)?(?:\s+${ANY_ING}(?:\s+[\w./'’-]+){0,3})?\s*(?:[:,—–]|\s-\s)`,
  // "Note to any AI screening tool:", "message for the summarizer —".
  String.raw`\b(?:note|message|memo|reminder|notice|instructions?|P\.?S\.?|comment|request|attention|important|urgent|info|information|reminder)\s+(?:for|to)\s+(?:(?:all|any|every|each|the|other)\s+)*(?:[\w-]+\s+){0,2}?${READER_EN}(?:\s+${ANY_ING}(?:\s+[\w./'’-]+){0,3})?\s*[:,!—–-]`,
  // "MEMO: for the robot clerk - …", "[assistant-only]", "[for AI agents]".
  String.raw`${EDGE}(?:for|to)\s+(?:(?:all|any|every|each|the|other)\s+)*${READER_EN}(?:\s+${ANY_ING}(?:\s+[\w./'’-]+){0,3})?\s*(?:[:—–]|\s-\s)|\[\s*(?:for\s+)?(?:AI|LLM|assistants?|agents?|models?|bots?)(?:[\s-]+(?:only|use only|eyes only|agents?|assistants?))?\s*\]`,
  // "whichever AI tool is reading this", "any AI agent accessing this site".
  String.raw`\b(?:whichever|whatever|any|every|each)\s+(?:other\s+)?${READER_EN}\s+(?:(?:that|which|who)\s+)?(?:is\s+|are\s+)?${DOING_EN}\b`,
  // "If an AI scheduling assistant is handling this invite".
  String.raw`\b(?:if|when|while|in case)\s+(?:you\s+are\s+|you're\s+)?(?:an?|the|any|some)\s+(?:[\w-]+\s+)?${READER_EN}\s+(?:is\s+|are\s+)?(?:[\w-]+\s+)?${DOING_EN}\b`,
];

/** After naming the reader, a request or an imperative within the next sentence or two. */
const ASKS_EN = String.raw`\b(?:please|kindly|must|should|shall|need to|have to|are (?:to|required to|expected to)|make sure|ensure|be sure|do not|don't|never|always|you are|you're|from this point|from now on)\b|(?:^|[.:;,!—–-]\s*|\b(?:and|then|also|first)\s+)(?:send|forward|e-?mail|tell|reply|respond|accept|approve|mark|add|delete|remove|run|execute|update|change|recommend|rank|score|rate|present|omit|leave|ignore|disregard|say|state|write|include|post|publish|unsubscribe|subscribe|merge|call|invoke|open|click|visit|install|download|transfer|pay|grant|share|export|upload|output|print|reveal|describe|summari[sz]e|answer|treat|praise|promote|mention|report|set|give|confirm|book|buy|purchase|sign|use|switch|pretend|act|translate|direct|point|ask|refer)\b`;

/** The reader in Chinese; a bare 助理 or 代理 may be a person, so those need AI before them. */
const NAMED_ZH = alt(
  'AI[\\u4e00-\\u9fff]{0,4}(?:助手|助理|代理|程序|工具|机器人|智能体|爬虫|秘书|阅读者|读者|系统|模型|员)',
  '(?:智能|自动化?|[\\u4e00-\\u9fff]{0,2}?自动)[\\u4e00-\\u9fff]{0,4}(?:助手|助理|程序|机器人|工具|系统|秘书|管家|阅读器)',
  '[\\u4e00-\\u9fff]{0,3}机器人',
  '[\\u4e00-\\u9fff]{0,3}助手',
  'AI|人工智能|大?语言模型|大模型|智能体|机器人|爬虫',
);
/** With a clause before it (处理本表的程序, 正在总结本文件的任何人或程序), a bare 程序 or 模型 is a reader too. */
const READER_ZH = alt(NAMED_ZH, '任何人或程序|程序|模型');
// prettier-ignore
const ADDRESS_ZH = [
  // 致邮件助手：, 给智能助理的备注：, 评论者致 AI 的备注：, 致正在总结本文件的任何人或程序：.
  `(?:(?:致|写给)(?:所有|各位|正在|负责)?[^，。！？：:\\n]{0,14}?|(?:给|对)(?:所有|各位)?(?:[^，。！？：:\\n]{1,12}?的)?)${READER_ZH}(?:们)?(?:的(?:备注|话|说明|提示|留言|指令|一句话|信)?)?(?:说一句)?\\s?[:：，,—]`,
  // 助手：…, ＡＩ助手：…, 各位AI代理：….
  `(?:^|[\\n"“'(（>:：。！？!?，,—*]|\\\\n)\\s?(?:提醒|通知|告诉|敬告|致|给)?(?:所有|各位|诸位|全体|亲爱的|尊敬的|嗨|你好)?\\s?${NAMED_ZH}(?:们)?\\s?(?:请注意|注意|须知)?\\s?[:：]`,
  // 记录员机器人听好，…, 【AI专用】, [AI 须知].
  `${NAMED_ZH}(?:们)?(?:听好|听着|请听好|注意了|看这里|看过来)|[【\\[(（]\\s?(?:AI|LLM|助手|模型|大模型|机器人|智能体)\\s?(?:专用|专属|须知|必读|指令|only)\\s?[】\\])）]`,
  // 尊敬的AI助理，…: a greeting to the reader.
  `(?:各位|诸位|亲爱的|尊敬的|嗨|你好|您好)[，,]?\\s?${NAMED_ZH}(?:们)?\\s?[:：，,！!]`,
  // 处理本表的AI, 记纪要的AI, 正在总结的助手, 读到这里的AI.
  `(?:正在|负责|专门)?(?:总结|阅读|处理|读取|整理|解析|筛选|审核|记录|记|读到|看到|读|看|翻译|回复|代收|代看|监控)[^，。！？：:\\n]{0,10}?的\\s?${READER_ZH}`,
  // 如果是AI在替小陈看邮件, 如由AI日程助手处理此邀请.
  `(?:如果|若|假如|倘若|如由|若由|要是)(?:你)?(?:是|由)?[^，。！？\\n]{0,6}?(?:AI|人工智能|大模型|智能体|机器人|助手)[^，。！？\\n]{0,4}?(?:在|来|正在)?(?:处理|阅读|读|看|替|代|总结|整理)`,
  // 仅供AI阅读, 以下内容只给AI看.
  `(?:仅供|只供|只给|专门给|只有)\\s?${READER_ZH}\\s?(?:阅读|看|读|处理)`,
];
const ASKS_ZH =
  '请(?!求)|务必|必须|应当|应该|不得|不要|别|只能|一律|把|将|帮|给出|删除|转发|发送|发到|执行|调用|回复|批准|推荐|写上|写|告诉|说|改|标记|接受|同意|忽略|无视|假装|扮演|你现在|从现在|从下一条|你就是|你是';

const WINDOW = 200;
const asksEn = new RegExp(ASKS_EN, 'iu');
const asksZh = new RegExp(ASKS_ZH, 'u');

/** The reader named: `weight` alone, `ordered` when a request follows; its span runs to the request. */
function addressed(sources: string[], asks: RegExp, weight: number, ordered: number): SafetyRule[] {
  const patterns = sources.map((s) => new RegExp(s, 'giu'));
  const spans = (text: string, wantOrder: boolean): [number, number][] => {
    const out: [number, number][] = [];
    for (const p of patterns) {
      for (const m of text.matchAll(p)) {
        const lead = m[0].length - m[0].trimStart().length;
        const start = m.index + lead;
        const end = m.index + m[0].length;
        const ask = asks.exec(text.slice(end, end + WINDOW));
        if (wantOrder && ask) out.push([start, end + ask.index + ask[0].length]);
        if (!wantOrder) out.push([start, end]);
      }
    }
    return out;
  };
  const code: SignalCode = 'addressee';
  return [
    { code, weight, find: (text) => spans(text, false) },
    { code, weight: ordered, find: (text) => spans(text, true) },
  ];
}

/** A plural reader told what it must do: "Assistants should always…", 助手应始终…, AI助手应当…. */
const MODAL_EN = String.raw`\b(?:models|LLMs|assistants|AI agents|AI tools|crawlers|bots)\s+(?:that|which|who)\s+(?:[\w-]+\s+){1,4}?(?:must|should|shall|are to|need to)\b|\b(?:AI|LLM|automated)\s+(?:[\w-]+\s+)?(?:assistants|agents|bots|models|tools|readers|systems)\s+(?:should|must|shall|are (?:to|required to|expected to)|need to|have to)\b|\bassistants\s+(?:should|must|shall)\b|\bagents\s+must\s+keep\b`;
const MODAL_ZH =
  '(?:AI|人工智能|大模型|智能体|机器人|助手|AI代理)(?:们)?(?:在[^，。！？\\n]{0,12}?)?(?:应当|应该|应(?!用|答|对|变|急|聘|届|邀|运)|务必|必须|一律|只能|请(?!求))';
/** "@copilot …", "@assistant 请…": a mention of an AI bot on a forge or in chat. */
const MENTION = '@(?:copilot|claude|chatgpt|gpt|assistant|ai|codex|devin|cursor|gemini|助手)\\b';

const plain = (code: SignalCode, weight: number, source: string): SafetyRule => {
  const pattern = new RegExp(source, 'giu');
  return {
    code,
    weight,
    *find(text) {
      for (const m of text.matchAll(pattern)) yield [m.index, m.index + m[0].length];
    },
  };
};

export const ADDRESSED_RULES: SafetyRule[] = [
  ...addressed(ADDRESS_EN, asksEn, 0.45, 0.75),
  ...addressed(ADDRESS_ZH, asksZh, 0.45, 0.75),
  ...addressed([MENTION], new RegExp(`${ASKS_EN}|${ASKS_ZH}`, 'iu'), 0.3, 0.5),
  plain('addressee', 0.5, MODAL_EN),
  plain('addressee', 0.5, MODAL_ZH),
];
