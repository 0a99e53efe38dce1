// English forms of text addressed to the AI reading it (see safety-rules-addressed.ts).
import { alt } from './safety-rule.js';

/** What is said of a tool that reads for a user; "agent" or "assistant" alone may be a person. */
const QUAL = alt(
  'AI|LLM|LLM-based|AI-based|AI-powered|automated|autonomous|robotic|coding|scheduling|screening|e-?mail|inbox',
  'browser|browsing|shopping|language|virtual|digital|smart|document|triage|bookkeeping',
  'artificial intelligence|AI-driven|machine|software|summary|summari[sz]ation|comparison|research|search|reconciliation|payables|mail',
);
const NOUN = alt(
  'assistants?|agents?|tools?|readers?|systems?|bots?|models?|programs?|screeners?|crawlers?|scrapers?|parsers?',
  'indexers?|summari[sz]ers?|reviewers?|helpers?|clerks?|secretar(?:y|ies)|scribes?|note-?takers?|recorders?',
  'transcribers?|schedulers?|sorters?|handlers?|processors?|copilots?|writers?|generators?|engines?|overviews?',
  'steps?|stages?|pipelines?|workflows?',
);
/** Plural: a line opening "Automated scheduling tools:" speaks to a kind of reader; a speaker is one. */
const NOUN_PL = alt(
  'assistants|agents|tools|readers|systems|bots|models|programs|screeners|crawlers|scrapers|parsers|indexers',
  'summari[sz]ers|reviewers|helpers|clerks|secretaries|scribes|note-?takers|recorders|transcribers|schedulers',
  'sorters|handlers|processors|copilots|writers|generators|engines',
);
const NAMES =
  'Copilot|GitHub Copilot|Claude(?: Code)?|ChatGPT|Gemini|Bard|Cursor|Codex|Devin|Siri|Alexa|Cortana|Grok|DeepSeek|Kimi|Perplexity';
/** A bare "assistant" may be a person: only where nothing qualifies it (not "executive assistants"). */
const READER_STRICT = alt(
  String.raw`${QUAL}\s+(?:[\w-]+\s+)?${NOUN}`,
  String.raw`AI|A\.I\.|LLMs?|GPT|chatbots?|summari[sz]ers?|bots?|the model|models?|language models?`,
  NAMES,
);
/** A reader that is told what to do in the third person: never a bare "model" or "assistant" (people's words too). */
const READER_MODAL = alt(
  String.raw`${QUAL}\s+(?:[\w-]+\s+)?${NOUN}`,
  String.raw`AI|A\.I\.|LLMs?|GPT|chatbots?|language models?`,
  NAMES,
);
const READER = alt(
  String.raw`${QUAL}\s+(?:[\w-]+\s+)?${NOUN}`,
  String.raw`AI|A\.I\.|LLMs?|GPT|chatbots?|summari[sz]ers?|assistants?|bots?|the model|language models?|(?:language|AI)-models?\s+(?:readers?|agents?)`,
  NAMES,
);
export const DOING_EN = String.raw`(?:draft(?:s|ing)|help(?:s|ing)|assist(?:s|ing)|read(?:s|ing)|handl(?:es|ing)|process(?:es|ing)|summari[sz](?:es|ing)|screen(?:s|ing)|access(?:es|ing)|pars(?:es|ing)|view(?:s|ing)|brows(?:es|ing)|crawl(?:s|ing)|scrap(?:es|ing)|works? on|working on|operat(?:es|ing) on|act(?:s|ing) on|review(?:s|ing)|index(?:es|ing)|ingest(?:s|ing)|answer(?:s|ing)|modif(?:ies|ying)|edit(?:s|ing)|triag(?:es|ing)|sees|seeing|scan(?:s|ning)|manag(?:es|ing)|sort(?:s|ing))`;
/** Any participle: "chatbot quoting these prices:" (only where a colon or a dash ends the vocative). */
const ING = String.raw`(?:\s+(?:${DOING_EN}|[a-z]{3,}ing)(?:\s+[\w./'’-]+){0,3})`;
/** Where an inline vocative may start: a field, a bracket, a sentence or a tag's content (not a line). */
const EDGE = String.raw`(?:^|[“"'(（>\]:：.!?—–*])[ \t]*`;
const GREET = String.raw`(?:(?:dear|hey|hi|hello|attention|all|any|every|each|other|there)\s+)*`;
const END = String.raw`\s*(?:[:,—–!]|\s-\s)`;

// prettier-ignore
export const ADDRESS_EN = [
  // "Assistant: …", "(Automated readers: …", "AI agent processing this sheet: …", "Copilot, when …".
  String.raw`${EDGE}(?:\*\*)?${GREET}${READER}(?:\*\*)?${ING}?${END}`,
  // At a line's start a bare "Assistant:" is a transcript's speaker (a role tag): a participle or a greeting.
  String.raw`\n\s*(?:\*\*)?${GREET}${READER}(?:\*\*)?${ING}${END}|\n\s*(?:\*\*)?${GREET}${READER}(?:\*\*)?\s*[,—–!]|\n\s*(?:dear|hey|hi|hello)\s+(?:there\s+)?(?:[\w-]+\s+)?${READER}${END}`,
  String.raw`\n\s*(?:\*\*)?${GREET}${QUAL}\s+(?:[\w-]+\s+)?${NOUN_PL}\s*[:—–]`,
  // "Note to any AI screening tool:", "IMPORTANT for AI browsing agents:", "P.P.S. language model:".
  String.raw`\b(?:note|message|memo|reminder|notice|instructions?|P\.?(?:P\.?)?S\.?|comment|request|attention|important|urgent|info(?:rmation)?)\s+(?:for|to)\s+(?:(?:all|any|every|each|the|other|you)\s+)*(?:(?:[a-z]+ing\s+)?assistants?|(?:[\w-]+\s+){0,2}?${READER_STRICT}|[a-z]+ing\s+agents?|(?:review|merge|triage|CI|build|deploy|release)\s+agents?)${ING}?\s*[:,!—–-]`,
  // "MEMO: for the robot clerk - …", "[assistant-only]", "[for AI agents]".
  String.raw`${EDGE}(?:for|to)\s+(?:(?:all|any|every|each|the|other)\s+)*(?:assistants?|(?:[\w-]+\s+)?${READER_STRICT})${ING}?\s*(?:[:—–]|\s-\s)`,
  String.raw`\[\s*(?:for\s+(?:the\s+)?)?(?:AI|LLM|assistants?|agents?|models?|bots?)(?:[\s-]+(?:agents?|assistants?|models?))?[\s-]+(?:only|use only|eyes only)\s*\]|\[\s*for\s+(?:the\s+)?(?:AI|LLM|assistants?|agents?|models?|bots?)(?:\s+\w+){0,2}\s*\]`,
  // "whichever AI tool is reading this", "any AI agent accessing this site", "whoever is reading this".
  String.raw`\b(?:whichever|whatever|any|every|each)\s+(?:other\s+)?${READER}\s+(?:(?:that|which|who)\s+)?(?:is\s+|are\s+|happens to be\s+)?${DOING_EN}\b`,
  String.raw`\b(?:whoever|whatever|anyone|anybody)(?:'s|’s|\s+is|\s+that is)\s+(?:[a-z]+-)?${DOING_EN}(?:\s+[\w'’./-]+){0,4}\s*[,:—]`,
  String.raw`\b(?:whoever|whatever|anyone|anything)\s+(?:that\s+)?(?:is\s+)?${DOING_EN}\s*(?:this|these|the|my|our|:)|\b(?:for|to)\s+(?:whoever|whatever|anyone)\s+(?:that\s+)?(?:is\s+)?${DOING_EN}(?:\s+[\w'-]+){0,2}\s*[:,]`,
  // "Whatever you use to read your mail, please …".
  String.raw`\bwhatever\s+(?:app|tool|software|program|assistant|service\s+)?\s*you\s+use\s+to\s+(?:read|check|sort|handle|manage|process|screen)\b(?:\s+[\w'’-]+){0,3}\s*[,:—]`,
  // "Have the assistant pay the attached invoice": an errand for the assistant that moves money or data.
  String.raw`\b(?:have|let|get|ask|tell)\s+(?:the|your)\s+(?:AI\s+)?(?:assistant|agent|bot)\s+(?:to\s+)?(?:pay|send|forward|approve|transfer|wire|delete|share|export|release|subscribe|accept|book|buy|order|register|sign up|confirm|enrol+)\b`,
  // "If an AI scheduling assistant is handling this invite".
  String.raw`\b(?:if|when|while|in case)\s+(?:you\s+are\s+|you're\s+)?(?:an?|the|any|some|your)\s+(?:[\w-]+\s+)?${READER}\s+(?:is\s+|are\s+)?(?:[\w-]+\s+)?${DOING_EN}\b`,
  // "intended for the AI system managing this mailbox", "As the AI triage agent you…", "have your AI agent…".
  String.raw`\b(?:intended|meant|written|addressed)\s+(?:only\s+|solely\s+|specifically\s+)?(?:for|to)\s+(?:the\s+|any\s+|an?\s+)?(?:[\w-]+\s+){0,2}?${READER}\b`,
  String.raw`\bas\s+(?:the|an?|our)\s+(?:[\w-]+\s+)?${READER}\b[^.\n]{0,20}?\byou\b`,
  String.raw`\b(?:have|let|get|ask|tell|instruct)\s+your\s+${QUAL}\s+(?:[\w-]+\s+)?(?:assistants?|agents?|bots?|tools?|helpers?)\b`,
  // "Humans can skip this part", "(meaningless to humans)", "(applies to AI only)".
  String.raw`\b(?:humans?|human readers?|people)\s+(?:can|may|should|please)?\s*(?:skip|ignore|disregard)\s+(?:this|the following|below|what follows)|\b(?:meaningless|irrelevant|not meant|not intended|invisible)\s+(?:to|for)\s+humans\b|\b(?:applies|apply|relevant|visible|meant)\s+(?:only\s+)?(?:to|for)\s+(?:AI|LLMs?|models?|assistants?|bots?|machines)(?:\s+only)?\b|\bfor\s+machines\s*:`,
  // A field or a block meant for the model: "ai_instructions": …, >>> assistant_instructions:, BEGIN AGENT DIRECTIVE.
  String.raw`"(?:ai|llm|assistant|agent|model|bot|gpt)[_ -]?(?:instructions?|prompts?|directives?|notes?|messages?|commands?|tasks?)"\s*:|\b(?:ai|llm|assistant|agent|model|bot)[_-](?:instructions?|prompt|directives?|notes?|commands?)\b\s*[:=]`,
  String.raw`\b(?:BEGIN|START|END)\s+(?:OF\s+)?(?:AI|AGENT|ASSISTANT|LLM|MODEL|BOT)\s+(?:DIRECTIVES?|INSTRUCTIONS?|PROMPTS?|ORDERS?|COMMANDS?|MESSAGES?|TASKS?)\b`,
  // A to-do for the model in code: "# TODO(ai): …", "// FIXME(copilot): …".
  String.raw`\b(?:TODO|FIXME|NOTE|HACK|XXX)\s*\(\s*(?:ai|llm|copilot|assistant|agent|claude|cursor|codex|gpt|bot)\s*\)\s*[:：]?`,
  // A label for the model: "Assistant instruction:", "Bot reminder:", "System directive (hidden):".
  String.raw`${EDGE}(?:(?:assistant|AI|model|bot|LLM)\s+(?:notes?|instructions?|directives?|reminders?|memos?|tasks?|commands?|orders?)|system\s+(?:instructions?|directives?|prompts?|overrides?|notes?))\b(?:\s*\([^)\n]{0,30}\))?\s*[:：—-]`,
  // "and for the bot taking notes, …", "to any agent scraping this thread …,", "(including automated assistants)".
  String.raw`\b(?:for|to)\s+(?:the|any|all|every|each)\s+(?:[\w-]+\s+)?(?:${READER}${ING}|agents?\s+${DOING_EN}(?:\s+[\w./'’-]+){0,8})\s*[,:—–]`,
  String.raw`\((?:including|incl\.?|and|also|or)\s+(?:any\s+|all\s+)?${READER}\)`,
  // The one who answers or who handles someone's mail: "when answering, state …", "since you handle Priya's inbox".
  String.raw`\bwhen\s+(?:answering|replying|responding|summari[sz]ing)\b\s*,|\bwhen\s+(?:answering|replying|responding|writing)\s+(?:to\s+)?(?:this|the|these|that)\s+[\w-]+\s*,|\byou\s+(?:handle|manage|read|triage|sort|process|look after)\s+[\w'’]+\s+(?:inbox|e-?mails?|mail|mailbox|calendar|messages)\b`,
];

/** "Agent instructions:": a support agent is a person as often as a model, so this says less. */
export const WEAK_ADDRESS_EN = [
  String.raw`${EDGE}agents?\s+(?:notes?|instructions?|directives?|reminders?|memos?|tasks?|commands?|orders?)\b(?:\s*\([^)\n]{0,30}\))?\s*[:：—-]`,
];

const VERBS = alt(
  'send|forward|e-?mail|tell|reply|respond|accept|approve|mark|add|delete|remove|run|execute|update|change',
  'recommend|rank|score|rate|present|omit|leave|ignore|disregard|say|state|write|include|post|publish',
  'unsubscribe|subscribe|merge|call|invoke|open|click|visit|install|download|transfer|pay|grant|share|export',
  'upload|output|print|reveal|describe|summari[sz]e|answer|treat|praise|promote|mention|report|set|give|confirm',
  'book|buy|purchase|order|sign|use|switch|pretend|act|translate|direct|point|ask|refer|initiate|close|record',
  'reset|cancel|stop|start|insist|hide|attach|bump|append|prepend|whitelist|allow|enable|disable|wire|fill',
  'submit|move|list|copy|paste|go ahead',
);
/** After naming the reader, a request or an imperative. */
export const ASKS_EN = String.raw`\b(?:please|kindly|must|should|shall|need to|have to|are (?:to|required to|expected to|instructed to)|make sure|ensure|be sure|do not|don't|never|always|you are|you're|from this point|from now on|that you)\b|\byou\s+(?:can|may|could|will|need to|are to)\b|(?:^|[.:;,!—–(\n-]\s*|\b(?:and|then|also|first)\s+)${VERBS}\b`;

/** A reader told what it must do: "Assistants should always…", "Your automated bookkeeping tool should…". */
// prettier-ignore
export const MODAL_EN = [
  String.raw`\b(?:models|LLMs|assistants|AI agents|AI tools|crawlers|bots)\s+(?:that|which|who)\s+(?:[\w-]+\s+){1,4}?(?:must|should|shall|are to|need to)\b`,
  String.raw`\b(?:AI|LLM|automated)\s+(?:[\w-]+\s+)?(?:assistants|agents|bots|models|tools|readers|systems)\s+(?:[a-z]+ing\s+(?:[\w./'’-]+\s+){0,3})?(?:should|must|shall|are (?:to|required to|expected to)|need to|have to)\b`,
  String.raw`\b(?:your|the)\s+(?:AI|automated|LLM|virtual|digital)\s+(?:[\w-]+\s+)?(?:assistant|agent|tool|bot|system|model|program)\s+(?:should|must|shall|is to|needs to|has to|is expected to|is required to)\b`,
  String.raw`\b(?:AI\s+)?(?:agents?|bots?|assistants?|crawlers?)\s+(?:that|which|who)\s+(?:[\w-]+\s+){1,5}?(?:consent|agree|accept|authori[sz]e|are deemed|is deemed)\b`,
  // "Software agents that retrieve or summarise these Terms … shall enroll …", "Automated mail handlers shall add …".
  String.raw`\b(?:${QUAL}\s+(?:[\w-]+\s+)?${NOUN_PL}|AI|LLMs|crawlers|bots|chatbots)\s+(?:that|which|who)\s+(?:[\w,'’-]+\s+){1,12}?(?:must|should|shall|are to|need to|have to|accept|agree|consent|are deemed)\b`,
  String.raw`\b${QUAL}\s+(?:[\w-]+\s+)?${NOUN_PL}\s+(?:should|must|shall|are (?:to|required to|expected to)|need to|have to)\b`,
  // "Reconciliation tools should update the vendor record": software told what to do with the user's things.
  String.raw`\b(?:[\w-]+\s+)?(?:tools|bots|software|programs|engines|scripts|crawlers|parsers|scrapers|integrations|plugins)\s+(?:should|must|shall|are to|need to|have to)\s+(?:\w+\s+)?(?:update|send|forward|tell|inform|add|delete|approve|accept|pay|mark|record|treat|recommend|rank|rate|describe|say|state|include|omit|ignore|reply|respond|grant|share|export|upload|enroll|subscribe|change|set|route|release)\b`,
  // "Any assistant relaying this recipe has to mention …": a bare reader with a participle and this text.
  String.raw`\b(?:any|every|each|all)\s+(?:assistants?|agents?|models?|tools?|systems?|programs?|services?)\s+[a-z]{3,}ing\s+(?:this|these|the|our)\b[^.\n]{0,60}?\b(?:must|should|shall|ha(?:s|ve) to|needs? to|(?:is|are) (?:to|required to)|agrees? to)\b`,
  // "any AI notetaker on this call should …", "If an AI assistant is helping you, it should …", "Any artificial
  // intelligence agent accessing this page agrees to …": a reader named, then what it is to do.
  String.raw`\b(?:any|every|each|all|an?|your|the)\s+(?:other\s+)?${READER_MODAL}(?:[\s,]+(?!(?:should|must|shall)\b)[\w'’./-]+){0,6}?[\s,]+(?:(?:it|they)\s+)?(?:should|must|shall|(?:is|are) (?:to|expected to|required to|asked to|instructed to|supposed to)|needs? to|ha(?:s|ve) to|agrees? to|consents? to|will need to|is deemed to|are deemed to)\b`,
  String.raw`\b(?:assistants|chatbots|LLMs)\s+(?:[a-z]+ing\s+(?:[\w./'’-]+\s+){0,4})?(?:should|must|shall|are (?:to|required to|expected to|asked to)|need to|have to)\b|\bagents\s+must\s+(?:keep|first|always|never)\b`,
].join('|');

/** "@copilot …", "@assistant 请…": a mention of an AI bot on a forge or in chat. */
export const MENTION =
  '@(?:(?:copilot|claude|chatgpt|gpt|assistant|ai|codex|devin|cursor|gemini)\\b|[^\\s@，。]{0,6}?(?:智能|AI|ai)?(?:助手|助理|机器人|小助手))';
