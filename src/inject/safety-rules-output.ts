// Safety rules for text that steers the reader's own output: "in your summary of this page, mention…",
// "when you present these results, put this one first", "the summary you produce must say…", "reply to anyone
// asking about pricing with…", 在你对本页的总结里…, 展示这些结果时，…, 谁问价格就回复…. Only a model writes
// "your summary" of a page for someone else; a teacher's homework sheet says the same, so a request after it
// is quoted, never suppressed on its own.
import { ASKS_EN } from './safety-rules-addressed-en.js';
import { ASKS_ZH } from './safety-rules-addressed-zh.js';
import { rule, type SafetyRule } from './safety-rule.js';

const OUTPUT_EN = String.raw`(?:summary|summaries|answer|reply|response|output|recap|report|overview|review|write-?up)`;
const OUTPUT_ZH = '(?:总结|摘要|回答|回复|输出|报告|概述|点评|纪要)';
const STEER_EN = [
  String.raw`\b(?:in|into|within)\s+your\s+${OUTPUT_EN}\b`,
  String.raw`\bwhen\s+you\s+(?:present|summari[sz]e|describe|list|show|report|answer|reply|respond|rank|recommend|mention|write up|quote|brief|advise|update|inform)\b`,
  String.raw`\bthe\s+${OUTPUT_EN}\s+you\s+(?:produce|write|generate|give|create|send|prepare)\b`,
  String.raw`\bwhen\s+you\s+(?:read|see|process|parse|find)\s+this\b`,
  String.raw`\b(?:upon|on|after)\s+(?:reading|receiving|processing|opening|parsing|seeing|ingesting)\s+(?:this|these)\b`,
  String.raw`\b(?:when|whenever|if|once)\s+(?:this|the)\s+(?:page|document|article|text|post|e-?mail|message|review|listing|content|file|résumé|resume|snippet|thread|section|study|paper|report|invoice|application|offer|product|video)\s+(?:is|has been|gets|was)\s+(?:(?:discussed|mentioned|shared|relayed|forwarded|presented|recommended|scored|condensed|shortened|paraphrased|excerpted|rewritten|summari[sz]ed|read|processed|quoted|cited|translated|described|ranked|reviewed|evaluated|compared|parsed|indexed)(?:\s+or\s+)?){1,2}\b`,
];
const STEER_ZH = [
  `你(?:(?:对|给|为)[^，。！？\\n]{0,10}?)?的${OUTPUT_ZH}(?:里|中)`,
  '(?:展示|呈现|总结|介绍|列出|回答|回复|推荐|描述)(?:这些|本|此|该)?(?:结果|内容|信息|问题|页面|文章)?时[，,]',
  '(?:读到|看到|处理到|读取到)(?:这条|这里|本条|这段|此处|本段)(?:消息|内容)?时',
  '(?:介绍|推荐|转述|总结|展示|描述|引用)(?:本|此|该|这篇|这份)\\p{Script=Han}{1,4}时[，,]',
  // 处理本通知时顺手把…: whoever handles this text told what to do with it.
  '(?:处理|阅读|读取|查看|解析|转述|整理|归档|审阅|汇总)(?:本|此|这封|这条|这份|该)(?:信|来信|通知|邮件|消息|文件|文档|页面|网页|公告|短信|工单|表格|报告)时[，,]?',
];

/** What a reader makes of a text: its summary, its answers, its ranking (a reprint or a filing is a person's). */
const MADE_EN = String.raw`(?:summar(?:y|ies)|briefings?|scoring|scores?|ratings?|grading|verdicts?|reviews?|answers?|responses?|replies|descriptions?|recaps?|overviews?|comparisons?|rankings?|conclusions?|outputs?|translations?|paraphrases?|digests?|abstracts?|takeaways?|evaluations?|assessments?|recommendations?)`;
const THIS_EN = String.raw`(?:this|these|the present|the following|the above)\s+(?:[\w-]+\s+)?(?:page|document|article|text|post|site|website|dataset|data|knowledge base|e-?mail|message|listing|product|content|file|report|changelog|paper|whitepaper|review|company|recipe|thread|section|profile|résumé|resume|application|invoice|offer|brand|vendor|app|service|video|transcript|candidate|notice|terms)s?(?![\w\u00C0-\u024F])`;
const MUST_EN = String.raw`\b(?:must|should|shall|(?:is|are) (?:to|required to|expected to|obliged to)|need to|needs to|has to|have to|may only|can only|will always)\b`;
const MADE_ZH =
  '(?:改写|摘要|总结|概述|概括|转述|复述|回答|回复|答复|介绍|评测|对比|比较|翻译|推荐|结论|点评|排名|排序|评价|汇总|引用|评估)';
const THIS_ZH =
  '(?:本文|本页|本网页|本页面|本文件|本文档|此文|此页|该文|该文档|该页面|本帖|这篇文章|这篇|本邮件|这封邮件|本条|本资料|本报告|本数据|本商品|本产品|本店|本公司|本品牌|本简历|本视频|本笔记|这条笔记|本合同|本协议|本节|本章|本段|本部分|本回答|本岗位|本公告|本说明书|本条款|本评论)';
const MUST_ZH =
  '(?:(?:都|均|一律|统一)?(?:必须|应当|应该|应(?!用|答|对)|须|需要|务必|一定要|要(?!求)|只能|不得|不能|不要|请)|(?:都|均)?(?:一律|统一))';

// prettier-ignore
/** The output of whoever reads this text told what to say: "any summary of this page must conclude…", 本文的任何摘要都必须注明…. */
export const MADE_RULES: SafetyRule[] = [
  rule('directive', 0.6, String.raw`\b${MADE_EN}(?:\s*(?:,|\bor\b|\band\b|\/)\s*(?:an?\s+)?[\w-]+){0,3}\s+(?:of|about|on|for|derived from|based on|drawn from|generated from|built from|produced from|citing|mentioning)\s+${THIS_EN}[^.\n]{0,40}?${MUST_EN}`),
  rule('directive', 0.6, String.raw`\bthe\s+(?:correct|right|only|proper|expected|required|official)\s+(?:answer|response|reply|description|summary|conclusion)\s+(?:to|for)\s+(?:any|every|all|each)\s+(?:questions?|quer(?:y|ies)|requests?|prompts?)\b|\bwhen\s+(?:asked|questioned)\s+about\s+[^.\n]{1,60}?,\s+(?:the\s+(?:correct|right|only)\s+(?:answer|response)\s+is|(?:always\s+)?(?:say|reply|respond|answer|claim|insist|state))\b`),
  rule('directive', 0.5, String.raw`(?:^|[\n.!?:\[(【]\s*)(?:summary|summari[sz]ation|answer|response|output|reply|ranking|translation|assistant)\s+(?:instructions?|guidance|rules|directives?)\s*[:：]`),
  rule('directive', 0.55, String.raw`\b(?:place|put|rank|list|show|display|position|keep|pin|feature)\s+(?:this|our|these)\s+(?:[\w-]+\s+)?(?:listings?|products?|items?|results?|pages?|sites?|hotels?|restaurants?|shops?|stores?|offers?|apps?|brands?|compan(?:y|ies)|services?|articles?|answers?)\s+(?:above|ahead of|before|first|at the top|on top|higher than)\b|\b(?:list|describe|label|mark|call|present|report|flag)\s+(?:all\s+|any\s+|every\s+)?(?:competitors?|competing\s+(?:products?|brands?|vendors?|offers?)|rivals?|other\s+(?:brands?|vendors?|sellers?|shops?|products?))\s+as\b|\b(?:disregard|ignore|discount|skip|hide|drop)\s+(?:all\s+|any\s+|the\s+)?(?:negative|bad|critical|low|one-star|1-star|unfavou?rable|competing)\s+(?:reviews?|ratings?|comments?|results?|listings?|feedback)\b`),
  rule('directive', 0.45, String.raw`\b(?:respond|reply|say|explain|report|announce|mention|state|write|confirm)\s+to\s+(?:the|your)\s+(?:user|reader|customer|owner)s?\s+(?:that|:)`),
  rule('directive', 0.6, `${THIS_ZH}(?:的)?(?:内容)?(?:任何|所有|一切)?${MADE_ZH}[^，。！？\n]{0,4}?(?:时[，,]?)?\\s?${MUST_ZH}`),
  // 本回答被任何工具引用或摘要时，须写明…; 引用或概括本节内容时，一律写成….
  rule('directive', 0.6, `(?:被|在)(?:任何)?(?:工具|AI|模型|程序|助手|系统|人)?${MADE_ZH}(?:或${MADE_ZH})?时[，,]?\\s?${MUST_ZH}|${MADE_ZH}(?:或${MADE_ZH})?${THIS_ZH}(?:的)?(?:内容)?(?:时|的)[，,]?\\s?${MUST_ZH}`),
  rule('directive', 0.55, '把[「“"『]?[^，。！？」”"』\\n]{1,12}[」”"』]?(?:排在|排到|放在|列在|列为|排成|排为|排)(?:第一|首位|最前|榜首|第一位|最上面|第一名)|(?:其他|别的|其余)(?:牌子|品牌|商家|店|家|产品)[^，。！？\\n]{0,4}?(?:一律|都|统统|全部)(?:说|说成|标注|写成|称为|描述为)'),
  rule('directive', 0.6, `${MADE_ZH}(?:与|和|关于|有关)?(?:本|此|该|这款|这家|我们的?)(?:商品|产品|店铺?|页面|文章|内容|公司|品牌|文档|网页|笔记|帖子|简历|视频)[^，。！？\n]{0,10}?(?:时|的时候)[，,]?\\s?${MUST_ZH}`),
  rule('directive', 0.55, '(?:把|将)(?:本店|本商品|本产品|我们|本文|本页|这家店|本公司|本品|我店|本条|本帖)[^，。！？\n]{0,6}?(?:排(?:在)?(?:第一|首位|最前|前面|最上面|前列)|放(?:在)?(?:第一|首位|最前|最上面)|置顶)|(?:竞品|竞争对手|对手|其他(?:品牌|商家|产品|店铺|厂家))[^，。！？\n]{0,10}?(?:一律|都|统统|全部)?(?:标注|标记|说成|描述|写成|称为|列为)(?:为|成)?|(?:忽略|无视|不要理会|跳过|隐藏|过滤掉)(?:所有|全部|一切)?(?:的)?(?:差评|负面评价|负面评论|低分评价|批评)'),
];

/** The output named: 0.35 alone, 0.6 when a request follows within the sentence. */
function steering(sources: string[], asks: RegExp): SafetyRule {
  const patterns = sources.map((s) => new RegExp(s, 'giu'));
  return {
    code: 'directive',
    weight: 0.6,
    *find(text) {
      for (const p of patterns) {
        for (const m of text.matchAll(p)) {
          const end = m.index + m[0].length;
          const ask = asks.exec(text.slice(end, end + 120));
          if (ask) yield [m.index, end + ask.index + ask[0].length];
        }
      }
    },
  };
}

// prettier-ignore
export const OUTPUT_RULES: SafetyRule[] = [
  rule('directive', 0.35, STEER_EN.join('|')),
  rule('directive', 0.35, STEER_ZH.join('|')),
  steering(STEER_EN, new RegExp(ASKS_EN, 'iu')),
  steering(STEER_ZH, new RegExp(ASKS_ZH, 'u')),
  rule('directive', 0.5, String.raw`\b(?:reply|respond|answer)\s+to\s+(?:anyone|everyone|anybody|all|users?|people|customers?)\s+(?:who\s+(?:asks?|writes?|mentions?)|asking|that asks?)\b|\b(?:respond|reply|answer)\s+(?:only\s+)?with\s+["“][^"”\n]{1,40}["”]\s+to\s+(?:the\s+)?next\b|\bto\s+the\s+next\s+(?:\w+\s+)?(?:messages|requests|questions),?\s+(?:respond|reply|answer)\b`),
  rule('directive', 0.5, '谁问[^，。！？\\n]{0,8}?就(?:回复|回答|说)|(?:接下来|之后|以后)的?(?:[一二三四五六七八九十\\d]+条)?(?:消息|回复|回答)(?:都|一律)?(?:只)?(?:回复|回答)'),
  ...MADE_RULES,
  // A link that carries data out, its placeholder in Chinese: ?data=在此插入聊天记录.
  rule('exfiltration', 0.8, String.raw`https?:\/\/[^\s)"'<>]{1,200}[?&][\w-]{1,30}=(?:在此|这里|此处)?(?:插入|填入|附上|放入)`),
];
