// Catalog of the secretlint stage: the rules we add, and for every rule the text all of its matches contain.
import type { RedactionType } from './redact.js';

export interface GapPattern {
  name: string;
  type: RedactionType;
  /** Regex literals as secretlint-rule-pattern takes them; it compiles them with the `u` and `g` flags. */
  patterns: string[];
  /** Contained in every match of `patterns`; case-sensitive, no flags. */
  trigger: RegExp;
  /** A context pattern (`Bearer <x>`) yields to a provider format found on the same span. */
  context?: boolean;
}

// What the recommend preset misses. Lookbehinds keep key names out of the match.
export const GAP_PATTERNS: readonly GapPattern[] = [
  {
    // OpenAI (any length, incl. sk-proj-), Anthropic sk-ant-, DeepSeek-style sk- + 32 hex.
    name: 'sk-api-key',
    type: 'api_key',
    patterns: [
      String.raw`/(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]{0,300}\d)[A-Za-z0-9_-]{20,300}(?![A-Za-z0-9_-])/`,
    ],
    trigger: /sk-[A-Za-z0-9_-]{20}/,
  },
  {
    name: 'google-api-key',
    type: 'api_key',
    patterns: [String.raw`/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/`],
    trigger: /AIza/,
  },
  {
    name: 'stripe-secret-key',
    type: 'api_key',
    patterns: [String.raw`/(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[0-9A-Za-z]{10,247}(?![0-9A-Za-z])/`],
    trigger: /[sr]k_(?:live|test)_/,
  },
  {
    name: 'huggingface-token',
    type: 'token',
    patterns: [String.raw`/(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9])/`],
    trigger: /hf_/,
  },
  {
    // Personal, pipeline trigger, deploy, runner, OAuth app, CI job and feed tokens.
    name: 'gitlab-token',
    type: 'token',
    patterns: [
      String.raw`/(?<![A-Za-z0-9_])gl(?:pat|ptt|dt|rt|soat|oas|cbt|imt|ft|agent|ffct)-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/`,
    ],
    trigger: /gl(?:pat|ptt|dt|rt|soat|oas|cbt|imt|ft|agent|ffct)-/,
  },
  {
    // The webhook id and its token: together they post as the webhook.
    name: 'discord-webhook',
    type: 'token',
    patterns: [
      String.raw`/(?<=discord(?:app)?\.com\/api\/(?:v\d{1,2}\/)?webhooks\/)\d{17,20}\/[A-Za-z0-9_-]{60,100}/`,
    ],
    trigger: /discord(?:app)?\.com\/api\/(?:v\d{1,2}\/)?webhooks\//,
  },
  {
    // user id (base64) . timestamp . HMAC
    name: 'discord-bot-token',
    type: 'token',
    patterns: [
      String.raw`/(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_.-])/`,
    ],
    trigger: /[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\./,
  },
  {
    // The preset's rule takes no `-` in the first part, which real keys have.
    name: 'sendgrid-key',
    type: 'api_key',
    patterns: [String.raw`/(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/`],
    trigger: /SG\.[A-Za-z0-9_-]{22}\./,
  },
  {
    name: 'twilio-api-key',
    type: 'api_key',
    patterns: [String.raw`/(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])/`],
    trigger: /SK[0-9a-f]{32}/,
  },
  {
    name: 'mailgun-key',
    type: 'api_key',
    patterns: [String.raw`/(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9])/`],
    trigger: /key-[0-9a-f]{32}/,
  },
  {
    name: 'pypi-token',
    type: 'token',
    patterns: [String.raw`/(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,}/`],
    trigger: /pypi-AgE/,
  },
  {
    name: 'stripe-webhook-secret',
    type: 'secret',
    patterns: [String.raw`/(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+\/=]{24,}/`],
    trigger: /whsec_/,
  },
  {
    name: 'slack-token',
    type: 'token',
    patterns: [String.raw`/(?<![A-Za-z0-9-])xox[a-z]-[A-Za-z0-9-]{10,}(?![A-Za-z0-9-])/`],
    trigger: /xox[a-z]-/,
  },
  {
    name: 'npmrc-auth-token',
    type: 'token',
    context: true,
    patterns: [String.raw`/(?<=_authToken=)(?!\$\{)[^\s'"]{8,}/`],
    trigger: /_authToken=/,
  },
  {
    name: 'jwt',
    type: 'jwt',
    patterns: [String.raw`/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/`],
    trigger: /eyJ[A-Za-z0-9_-]{5,}\.eyJ/,
  },
  {
    name: 'bearer-token',
    type: 'token',
    context: true,
    patterns: [
      String.raw`/(?<=\b(?:[Bb]earer|BEARER)\s{1,8})(?=[A-Za-z0-9._~+\/-]{0,512}\d)[A-Za-z0-9._~+\/-]{16,}=*/`,
      String.raw`/(?<=[Aa]uthorization["']?\s*[:=]\s*["']?[Bb]asic\s{1,8})[A-Za-z0-9+\/]{8,}={0,2}/`,
    ],
    trigger:
      /(?:[Bb]earer|BEARER)\s{1,8}[A-Za-z0-9._~+/-]{16}|[Aa]uthorization["']?\s*[:=]\s*["']?[Bb]asic\s/,
  },
  {
    // Whole PEM block (its body never holds `--`); a block cut off before END still loses the base64 and
    // `Proc-Type:`-style header lines that follow it, and nothing after them.
    name: 'private-key-block',
    type: 'private_key',
    patterns: [
      String.raw`/-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!-)){0,20000}-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/`,
      String.raw`/-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\n){1,2}(?:[A-Za-z0-9+\/=]{16,}|[A-Z][A-Za-z-]{1,20}: [A-Za-z0-9,-]{1,100}))+/`,
    ],
    trigger: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY/,
  },
];

const USERINFO_URL = /:\/\/[^:/\s]+:[^@/\s]+@/;

/** Per recommend-preset rule: contained in every match it reports (read from its 11.7.1 source). */
export const PRESET_TRIGGERS: Readonly<Record<string, RegExp>> = {
  '@secretlint/secretlint-rule-aws':
    /A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|(?:ACCOUNT|[Aa]ccount)_?(?:ID|[Ii]d)?["']?\s*(?::|=>|=)\s*["']?\d{4}|(?:SECRET|[Ss]ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey)/,
  '@secretlint/secretlint-rule-privatekey': /-----BEGIN/,
  '@secretlint/secretlint-rule-npm': /npm_|:x-oauth-basic@/,
  '@secretlint/secretlint-rule-basicauth': USERINFO_URL,
  // The webhook half of this rule ignores case.
  '@secretlint/secretlint-rule-slack':
    /xox[bpaor]-|xapp-|[Hh][Oo][Oo][Kk][Ss]\.[Ss][Ll][Aa][Cc][Kk]\.[Cc][Oo][Mm]/,
  '@secretlint/secretlint-rule-sendgrid': /SG\./,
  '@secretlint/secretlint-rule-shopify': /shp(?:pa|ca|at|ss)_/,
  '@secretlint/secretlint-rule-github': /gh[pousr]_|github_pat_/,
  '@secretlint/secretlint-rule-openai': /sk-[A-Za-z0-9_-]{20}/,
  '@secretlint/secretlint-rule-anthropic': /sk-ant-api0/,
  '@secretlint/secretlint-rule-linear': /lin_api_/,
  '@secretlint/secretlint-rule-1password': /ops_ey/,
  '@secretlint/secretlint-rule-database-connection-string': USERINFO_URL,
};

/** Preset rules that do not run, and why. */
export const SKIPPED_PRESET_RULES: Readonly<Record<string, string>> = {
  // invariant: text under redaction cannot switch redaction off with a `secretlint-disable` comment
  // (test: "cannot be switched off by a secretlint-disable comment").
  '@secretlint/secretlint-rule-filter-comments': 'honours secretlint-disable comments inside the text',
  '@secretlint/secretlint-rule-gcp':
    'reads .json/.p12 files only; PEM keys inside are caught by private-key-block',
};

/** The finding type of each preset message id. */
export const PRESET_TYPES: Readonly<Record<string, RedactionType>> = {
  AWSAccessKeyID: 'api_key',
  AWSSecretAccessKey: 'secret',
  AWSAccountID: 'secret',
  PrivateKey: 'private_key',
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
