// Provider credentials found by secretlint (recommend preset + our patterns), gated by a cheap prefilter.
import { lintSource } from '@secretlint/core';
import { creator as rulePattern } from '@secretlint/secretlint-rule-pattern';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { RedactionSpan, RedactionType } from './redact.js';

type SecretlintConfig = Parameters<typeof lintSource>[0]['options']['config'];
type SecretlintMessage = Awaited<ReturnType<typeof lintSource>>['messages'][number];

const PRIORITY_SECRETLINT = 0;
// Context patterns (`Bearer <x>`) yield to a provider format found on the same span (`Bearer <jwt>` is a jwt).
const PRIORITY_CONTEXT = 5;

interface GapPattern {
  name: string;
  type: RedactionType;
  patterns: string[];
  context?: boolean;
}

// What the preset misses. Compiled by secretlint with the `u` and `g` flags; lookbehinds keep keys out of the match.
export const GAP_PATTERNS: readonly GapPattern[] = [
  {
    // OpenAI (any length, incl. sk-proj-), Anthropic sk-ant-, DeepSeek-style sk- + 32 hex.
    name: 'sk-api-key',
    type: 'api_key',
    patterns: [
      String.raw`/(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]{0,300}\d)[A-Za-z0-9_-]{20,300}(?![A-Za-z0-9_-])/`,
    ],
  },
  {
    name: 'google-api-key',
    type: 'api_key',
    patterns: [String.raw`/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/`],
  },
  {
    name: 'stripe-secret-key',
    type: 'api_key',
    patterns: [String.raw`/(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[0-9A-Za-z]{10,247}(?![0-9A-Za-z])/`],
  },
  {
    name: 'huggingface-token',
    type: 'token',
    patterns: [String.raw`/(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9])/`],
  },
  {
    name: 'gitlab-token',
    type: 'token',
    patterns: [String.raw`/(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/`],
  },
  {
    name: 'slack-token',
    type: 'token',
    patterns: [String.raw`/(?<![A-Za-z0-9-])xox[a-z]-[A-Za-z0-9-]{10,}(?![A-Za-z0-9-])/`],
  },
  {
    name: 'npmrc-auth-token',
    type: 'token',
    context: true,
    patterns: [String.raw`/(?<=_authToken=)(?!\$\{)[^\s'"]{8,}/`],
  },
  {
    name: 'jwt',
    type: 'jwt',
    patterns: [String.raw`/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/`],
  },
  {
    name: 'bearer-token',
    type: 'token',
    context: true,
    patterns: [
      String.raw`/(?<=\b(?:[Bb]earer|BEARER)\s{1,8})(?=[A-Za-z0-9._~+\/-]{0,512}\d)[A-Za-z0-9._~+\/-]{16,}=*/`,
      String.raw`/(?<=[Aa]uthorization["']?\s*[:=]\s*["']?[Bb]asic\s{1,8})[A-Za-z0-9+\/]{8,}={0,2}/`,
    ],
  },
  {
    // Whole PEM block (its body never holds `--`); a block cut off before END still loses every base64 line
    // that follows the header.
    name: 'private-key-block',
    type: 'private_key',
    patterns: [
      String.raw`/-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!-)){0,20000}-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/`,
      String.raw`/-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\n)[A-Za-z0-9+\/=:\- ]{16,})+/`,
    ],
  },
];

const PRESET_TYPES: Readonly<Record<string, RedactionType>> = {
  AWSAccessKeyID: 'api_key',
  AWSSecretAccessKey: 'secret',
  AWSAccountID: 'secret',
  PrivateKey: 'private_key',
  PrivateKeyJSON: 'private_key',
  PrivateKeyP12: 'private_key',
  NPM_ACCESS_TOKEN: 'token',
  Npmrc_authToken: 'token',
  PackageJSON_xOauthToken: 'token',
  SLACK_TOKEN: 'token',
  IncomingWebhook: 'token',
  BasicAuth: 'password',
  MongoDBConnection: 'password',
  MySQLConnection: 'password',
  PostgreSQLConnection: 'password',
  OPENAI_TOKEN: 'api_key',
  ANTHROPIC_API_KEY: 'api_key',
  LINEAR_API_TOKEN: 'api_key',
  SENDGRID_KEY: 'api_key',
  SHOPIFY_KEY: 'api_key',
  GITHUB_TOKEN: 'token',
  OPS_TOKEN: 'token',
};

// The preset's rules are registered one by one: secretlint 11 ignores `disabled` on a rule inside a preset.
// invariant: text under redaction cannot switch redaction off with a `secretlint-disable` comment, so the
// filter-comments rule is left out.
const CONFIG: SecretlintConfig = {
  rules: [
    ...recommendedRules
      .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
      .map((rule) => ({
        id: rule.meta.id,
        rule,
        options: rule.meta.id === '@secretlint/secretlint-rule-aws' ? { enableIDScanRule: true } : {},
      })),
    {
      id: rulePattern.meta.id,
      rule: rulePattern,
      options: { patterns: GAP_PATTERNS.map(({ name, patterns }) => ({ name, patterns })) },
    },
  ],
};

// invariant: every text on which a rule above can report matches PREFILTER — each alternative is a literal every
// match of some rule must contain (tested in redact-secretlint.test.ts).
const PREFILTER = new RegExp(
  [
    String.raw`sk-[A-Za-z0-9_-]{20}`, // openai, anthropic, sk-api-key
    String.raw`A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA`, // aws access key id
    String.raw`(?:ACCOUNT|[Aa]ccount)_?(?:ID|[Ii]d)?["']?\s*(?::|=>|=)`, // aws account id
    String.raw`(?:SECRET|[Ss]ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey)`, // aws secret access key
    String.raw`:\/\/[^:\/\s]+:[^@\/\s]+@|:x-oauth-basic@`, // basic auth, database URLs, npm x-oauth
    String.raw`[Hh][Oo][Oo][Kk][Ss]\.[Ss][Ll][Aa][Cc][Kk]\.[Cc][Oo][Mm]`, // slack webhook (case-insensitive rule)
    String.raw`xox|xapp-|npm_|_authToken=|SG\.|shp(?:pa|ca|at|ss)_|gh[pousr]_|github_pat_|lin_api_|ops_ey`,
    String.raw`AIza|[sr]k_(?:live|test)_|hf_|glpat-|eyJ|[Bb]earer|BEARER|uthorization|-----BEGIN`,
  ].join('|'),
);

export function needsSecretlint(text: string): boolean {
  return PREFILTER.test(text);
}

export async function scanWithSecretlint(text: string): Promise<RedactionSpan[]> {
  const result = await lintSource({
    // No file path: the npm rule then also checks `x-oauth-basic` URLs, and nothing is read from disk.
    source: { content: text, filePath: '', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  // secretlint strips a leading BOM before matching, so its offsets are one short of ours.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const content = shift ? text.slice(1) : text;
  return result.messages.map((message) => {
    const [start, end] = locate(content, message);
    return { ...describe(message), start: start + shift, end: end + shift };
  });
}

function describe(message: SecretlintMessage): Pick<RedactionSpan, 'type' | 'rule' | 'priority'> {
  const rule = message.ruleId.replace('@secretlint/secretlint-rule-', 'secretlint/');
  if (message.messageId === 'PATTERN') {
    const name = dataString(message, 'PATTERN_NAME');
    const pattern = GAP_PATTERNS.find((p) => p.name === name);
    return {
      // A pattern we do not know is still a secret: redact it whole.
      type: pattern?.type ?? 'secret',
      rule: `${rule}:${name}`,
      priority: pattern?.context ? PRIORITY_CONTEXT : PRIORITY_SECRETLINT,
    };
  }
  return {
    type: PRESET_TYPES[message.messageId] ?? 'secret',
    rule: `${rule}:${message.messageId}`,
    priority: PRIORITY_SECRETLINT,
  };
}

/** Map a reported range onto the secret itself. */
function locate(content: string, message: SecretlintMessage): [number, number] {
  const [start, end] = message.range;
  switch (message.messageId) {
    // These rules report [index of the whole match, + length of the captured value]: find the value instead.
    case 'AWSSecretAccessKey':
    case 'Npmrc_authToken':
    case 'PackageJSON_xOauthToken': {
      const value = dataString(message, message.messageId === 'AWSSecretAccessKey' ? 'KEY' : 'TOKEN');
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

function dataString(message: SecretlintMessage, key: string): string {
  const value: unknown = (message.data as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : '';
}
