// Provider credentials found by secretlint's rules (recommend preset + our patterns), each behind a cheap trigger.
import { creator as rulePattern } from '@secretlint/secretlint-rule-pattern';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { RedactionSpan, RedactionType } from './redact.js';
import { GAP_PATTERNS, PRESET_TRIGGERS, PRESET_TYPES, SKIPPED_PRESET_RULES } from './redact-patterns.js';

type RuleContext = Parameters<(typeof rulePattern)['create']>[0];
type RuleHandler = ReturnType<(typeof rulePattern)['create']>;
type SourceCode = Parameters<NonNullable<RuleHandler['file']>>[0];

interface ScanRule {
  id: string;
  /** Contained in every text the rule can report on; the rule runs only where it matches. */
  trigger: RegExp;
  type?: RedactionType;
  priority: number;
  create(context: RuleContext): RuleHandler;
}

interface Report {
  rule: ScanRule;
  messageId: string;
  data: unknown;
  range: readonly [number, number];
}

const PRIORITY_SECRETLINT = 0;
const PRIORITY_CONTEXT = 5;
// A preset rule this catalog does not know yet runs on every flagged text rather than on none.
const ALWAYS = /[\s\S]/;

// The rules run through their public rule API rather than @secretlint/core's lintSource: in 11.x every lintSource
// call leaves ~64 performance marks that its always-on profiler keeps forever (unbounded memory, and a per-call
// cost that grows with uptime; secretlint#1633, fixed only in releases that need Node 22).
export const SCAN_RULES: readonly ScanRule[] = [
  ...recommendedRules
    .filter((rule) => !(rule.meta.id in SKIPPED_PRESET_RULES))
    .map((rule): ScanRule => ({
      id: rule.meta.id.replace('@secretlint/secretlint-rule-', 'secretlint/'),
      trigger: PRESET_TRIGGERS[rule.meta.id] ?? ALWAYS,
      priority: PRIORITY_SECRETLINT,
      create: (context) =>
        rule.create(
          context,
          rule.meta.id === '@secretlint/secretlint-rule-aws' ? { enableIDScanRule: true } : {},
        ),
    })),
  ...GAP_PATTERNS.map(({ name, type, patterns, trigger, context }): ScanRule => ({
    id: `secretlint/pattern:${name}`,
    trigger,
    type,
    priority: context ? PRIORITY_CONTEXT : PRIORITY_SECRETLINT,
    create: (ruleContext) => rulePattern.create(ruleContext, { patterns: [{ name, patterns }] }),
  })),
];

// invariant: PREFILTER matches every text on which some rule can report, since it is the union of the triggers
// (test: "passes every text on which secretlint reports something").
const PREFILTER = new RegExp(SCAN_RULES.map((rule) => rule.trigger.source).join('|'));

export function needsSecretlint(text: string): boolean {
  return PREFILTER.test(text);
}

export interface ScanOptions {
  /** Run every rule regardless of its trigger (tests check the triggers this way). */
  ungated?: boolean;
}

export async function scanWithSecretlint(text: string, options: ScanOptions = {}): Promise<RedactionSpan[]> {
  const reports: Report[] = [];
  const source = createSource(text);
  for (const rule of SCAN_RULES) {
    if (!options.ungated && !rule.trigger.test(text)) continue;
    // Fresh handlers per text: reports of concurrent scans never mix.
    await rule.create(createContext(rule, reports)).file?.(source);
  }
  return reports.map((report) => {
    const [start, end] = locate(text, report);
    return {
      type: report.rule.type ?? PRESET_TYPES[report.messageId] ?? 'secret',
      rule: report.rule.type ? report.rule.id : `${report.rule.id}:${report.messageId}`,
      start,
      end,
      priority: report.rule.priority,
    };
  });
}

// Translation is skipped on purpose: a rule's message would embed the secret; only its id and data are kept.
function createContext(rule: ScanRule, reports: Report[]): RuleContext {
  const translate = (messageId: string, data?: unknown) => ({ message: messageId, messageId, data });
  return {
    sharedOptions: {},
    createTranslator: (() => translate) as unknown as RuleContext['createTranslator'],
    report: ({ message, range }) =>
      void reports.push({ rule, messageId: message.messageId, data: message.data, range }),
    ignore: () => undefined,
  };
}

function createSource(content: string): SourceCode {
  // No rule in use needs positions; filter-comments, which does, is not loaded.
  const unsupported = (): never => {
    throw new Error('source positions are not available to redaction rules');
  };
  return {
    hasBOM: false,
    content,
    // No file path: the npm rule then also checks `x-oauth-basic` URLs, and nothing is read from disk.
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '.txt',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    locationToRange: unsupported,
    rangeToLocation: unsupported,
    positionToIndex: unsupported,
    indexToPosition: unsupported,
  };
}

/** Map a reported range onto the secret itself. */
function locate(content: string, report: Report): [number, number] {
  const [start, end] = report.range;
  switch (report.messageId) {
    // These rules report [index of the whole match, + length of the captured value]: find the value instead.
    case 'AWSSecretAccessKey':
    case 'Npmrc_authToken':
    case 'PackageJSON_xOauthToken': {
      const value = dataString(report, report.messageId === 'AWSSecretAccessKey' ? 'KEY' : 'TOKEN');
      const at = value ? content.indexOf(value, start) : -1;
      return at >= 0 ? [at, at + value.length] : [start, end];
    }
    // `account_id: 1234-5678-9012` is reported whole: keep the key.
    case 'AWSAccountID': {
      const digits = /\d{4}-?\d{4}-?\d{4}/.exec(content.slice(start, end));
      return digits ? [start + digits.index, start + digits.index + digits[0].length] : [start, end];
    }
    // URLs are reported whole: only the password after `user:` goes.
    case 'BasicAuth':
    case 'MongoDBConnection':
    case 'MySQLConnection':
    case 'PostgreSQLConnection': {
      const userinfo = /^[^:]*:\/\/[^:/\s]*:/.exec(content.slice(start, end));
      const from = userinfo ? start + userinfo[0].length : -1;
      const at = from >= 0 ? content.indexOf('@', from) : -1;
      return at >= 0 && at < end ? [from, at] : [start, end];
    }
    default:
      return [start, end];
  }
}

function dataString(report: Report, key: string): string {
  const data = report.data;
  const value: unknown =
    typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : '';
}
