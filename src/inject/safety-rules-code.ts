// Safety rules for code, config and docstrings: a comment that speaks to an AI assistant. Code framing
// lowers what code says about prompts (string literals, tests, examples), not what a comment says to the
// model that reads the file, so these rules keep their weight inside code.
import { alt, type SafetyRule } from './safety-rule.js';

/** Where a comment starts: #, //, /*, *, --, ;, <!--, a docstring (maybe its next line), a JSON "_comment". */
const MARKER = alt(
  '#{1,3}',
  String.raw`\/{2,3}`,
  String.raw`\/\*{1,2}`,
  String.raw`\*`,
  '--',
  ';{1,2}',
  '<!--',
  String.raw`(?:"""|''')[ \t]*\n?[ \t]*`,
  String.raw`"_?(?:comment|note|readme)s?"[ \t]*:[ \t]*"`,
);
/** Names only an AI goes by; "model", "agent" or "bot" alone are ordinary words in code. */
const AI_NAME = alt(
  String.raw`AI(?:[ \t]+[\w-]{2,20})?[ \t]+(?:assistants?|agents?|tools?|bots?|programmers?|coders?|helpers?|reviewers?)|AI`,
  String.raw`LLMs?(?:[ \t]+(?:agents?|assistants?|tools?))?`,
  'large language models?|language models?|Copilot|GitHub Copilot|Cursor|Claude(?: Code)?|ChatGPT|GPT(?:-\\d\\w*)?|Codex|Gemini|Devin',
  String.raw`(?:coding|code|programming|automated|autonomous|AI-powered)[ \t]+(?:assistants?|agents?|tools?|bots?)`,
);
const VOCATIVE = String.raw`(?:hey|hi|hello|dear|attention|note (?:for|to)|message (?:for|to)|instructions? for|to|for)[ \t]+(?:the[ \t]+|any[ \t]+|all[ \t]+)?`;
/** Who is meant: "LLM agents reading this repo", "assistants working on this file". */
const WHO = String.raw`(?:[ \t]+(?:reading|editing|processing|working on|working in|touching|modifying|reviewing|that|who|which|in|on)(?:[ \t]+[\w'’./-]{1,20}){0,3})?`;
const ONE_NAME = alt(AI_NAME, 'assistants?|agents?|models?|bots?');
/** "To Copilot and other AI tools": a list of names. */
const ANY_NAME = String.raw`${ONE_NAME}(?:[ \t]*(?:,|and|or|&)[ \t]*(?:other[ \t]+|all[ \t]+|any[ \t]+)?${ONE_NAME}){0,3}`;
const ZH_NAME = alt(
  '(?:AI|人工智能)?[ \\t]*(?:智能|代码|编程|编码|自动化|写代码的)?[ \\t]*(?:助手|助理|机器人)|AI|人工智能|大模型|大语言模型|语言模型|智能体|Copilot|Cursor|Claude|ChatGPT|GPT',
);

// prettier-ignore
export const CODE_RULES: SafetyRule[] = [
  // "# AI code assistant: …", "// NOTE FOR AI ASSISTANTS: …", "# hey assistant, …", "<!-- To the coding agent: …".
  rule(String.raw`(?:^|\n)[ \t]*${MARKER}[ \t]*(?:${VOCATIVE}${ANY_NAME}|${AI_NAME})${WHO}[ \t]*[:,!—]`),
  // "# 致 AI 编程助手：…", "// 代码助手请注意：…", "智能体须知：…", "# 大模型看这里：…".
  rule(`(?:^|\\n)[ \\t]*${MARKER}[ \\t]*(?:致|给|写给|致所有|给所有|提醒|注意|告诉)?[ \\t]*(?:的)?${ZH_NAME}[ \\t]*(?:们)?(?:请注意|注意|须知|看这里|看过来|必读|请)?[ \\t]*[:：，,]`),
];

function rule(source: string): SafetyRule {
  const pattern = new RegExp(source, 'giu');
  return {
    code: 'addressee',
    weight: 0.6,
    inCode: true,
    *find(text) {
      for (const m of text.matchAll(pattern)) {
        const lead = m[0].length - m[0].trimStart().length;
        yield [m.index + lead, m.index + m[0].length];
      }
    },
  };
}
