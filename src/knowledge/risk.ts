// A procedure's risk from what it does, whatever its proposer said: one that deletes, deploys, sends,
// pays or opens a remote shell is high risk, in English or Chinese. Pure and deterministic.

export const RISKS = ['low', 'medium', 'high'] as const;
export type Risk = (typeof RISKS)[number];

export const RISK_REASONS = ['deletion', 'deployment', 'sending', 'payment', 'remote_shell'] as const;
export type RiskReason = (typeof RISK_REASONS)[number];

// English verbs and commands as words (`\b`); Chinese as the words themselves (no word boundaries in Han).
const RULES: ReadonlyArray<{ reason: RiskReason; en: RegExp; zh: RegExp }> = [
  {
    reason: 'deletion',
    en: /\b(?:delet(?:e|es|ed|ing|ion)|remov(?:e|es|ed|ing)|eras(?:e|es|ed|ing)|wip(?:e|es|ed|ing)|purg(?:e|es|ed|ing)|truncat(?:e|es|ed|ing)|destroy(?:s|ed|ing)?|unlink|rm\s+-[a-z]*[rf]|rm\s+\S|rmdir|drop\s+(?:table|database|schema|index|collection))\b/i,
    zh: /删除|删掉|删了|清空|清除|移除|销毁|抹掉|格式化|卸载/,
  },
  {
    reason: 'deployment',
    en: /\b(?:deploy(?:s|ed|ing|ment)?|redeploy|roll(?:s|ed|ing)?\s*out|rollout|release\s+(?:it\s+)?to|go(?:es)?\s+live|ship(?:s|ped)?\s+(?:it\s+)?to\s+prod\w*|push(?:es|ed)?\s+(?:it\s+)?to\s+(?:prod\w*|main|master|live)|publish(?:es|ed|ing)?|kubectl\s+(?:apply|rollout|set)|terraform\s+apply|helm\s+(?:install|upgrade))\b/i,
    zh: /部署|发布|上线|发版|灰度|推到生产|推送到生产/,
  },
  {
    reason: 'sending',
    en: /\b(?:send(?:s|ing)?|sent|e-?mail(?:s|ed|ing)?\s+(?:it|them|him|her|the|a|an|to|back)|mail\s+(?:it\s+)?to|reply(?:ing)?\s+(?:to|all)|repl(?:ies|ied)\s+to|forward(?:s|ed|ing)?\s+(?:it|them|the|to)|post(?:s|ed|ing)?\s+(?:it\s+)?(?:to|on)|tweet(?:s|ed|ing)?|broadcast(?:s|ing)?|sms|text\s+(?:him|her|them))\b/i,
    zh: /发送|发给|发到|发邮件|发消息|发短信|群发|转发|回复|寄给|寄出/,
  },
  {
    reason: 'payment',
    en: /\b(?:pay|pays|paid|paying|payments?|transfer(?:s|red|ring)?\s+(?:the\s+)?(?:money|funds|amount|payment)|wire\s+(?:the\s+)?(?:money|funds|transfer)|purchas(?:e|es|ed|ing)|buy(?:s|ing)?|bought|refund(?:s|ed|ing)?|charg(?:e|es|ed|ing)\s+(?:the\s+)?(?:card|customer|account))\b/i,
    zh: /支付|付款|转账|汇款|购买|下单|退款|缴费|扣款|打款|充值/,
  },
  {
    reason: 'remote_shell',
    en: /\b(?:ssh|scp|sftp|telnet|mosh|rsync\s+\S*\S:|remote\s+(?:shell|login|session|command|terminal|host)|(?:kubectl|docker)\s+exec|psexec|enter-pssession|winrm|ansible)\b/i,
    zh: /远程(?:登录|执行|终端|命令|连接|桌面|主机|服务器)|登录(?:到)?服务器|堡垒机|跳板机/,
  },
];

/** The side effects a text names. */
export function riskReasons(text: string): RiskReason[] {
  return RULES.filter((r) => r.en.test(text) || r.zh.test(text)).map((r) => r.reason);
}

export interface ProcedureParts {
  text: string;
  preconditions?: readonly string[] | undefined;
  steps?: readonly string[] | undefined;
  checks?: readonly string[] | undefined;
  /** What its proposer said; the rule can raise it, never lower it. */
  risk?: Risk | null | undefined;
}

export const riskRank = (risk: Risk | null | undefined): number => (risk ? RISKS.indexOf(risk) : 0);

/**
 * invariant: a procedure whose text or steps name a deletion, a deployment, a sending, a payment or a remote
 * shell is high risk whatever its proposer said (test: src/knowledge/risk.test.ts "invariant: the risk of a
 * procedure comes from its steps and text").
 */
export function assessRisk(p: ProcedureParts): { risk: Risk; reasons: RiskReason[] } {
  const parts = [p.text, ...(p.preconditions ?? []), ...(p.steps ?? []), ...(p.checks ?? [])];
  const reasons = [...new Set(parts.flatMap(riskReasons))];
  if (reasons.length > 0) return { risk: 'high', reasons };
  return { risk: p.risk ?? 'low', reasons };
}
