// The safety gate's scorer: whether a memory text may reach a prompt as it is, only as quoted data, or not at
// all. Pure and synchronous; English and Chinese; who wrote the text and how it frames an attack both count.
import { aimOf } from './safety-aim.js';
import { framingOf, inside, overlaps, reports, trustOf, type Framing, type Trust } from './safety-context.js';
import { learnedScore } from './safety-learned.js';
import { negatedAct } from './safety-negation.js';
import { normalizeForSafety, type Normalized } from './safety-normalize.js';
import { sentences, type SafetyRule, type SignalCode } from './safety-rule.js';
import { decodings } from './safety-decode.js';
import { ACTION_RULES, SECRECY_RULES } from './safety-rules-actions.js';
import { ADDRESSED_RULES } from './safety-rules-addressed.js';
import { OUTPUT_RULES } from './safety-rules-output.js';
import { CODE_RULES } from './safety-rules-code.js';
import { EN_HIGH_RISK, EN_RULES } from './safety-rules-en.js';
import { RELAY_RULES } from './safety-rules-relay.js';
import { STANDING_RULES } from './safety-rules-standing.js';
import { SYNTAX_RULES } from './safety-rules-syntax.js';
import { MODEL_RULES, TEMPLATE_RULES } from './safety-rules-template.js';
import { ZH_HIGH_RISK, ZH_RULES } from './safety-rules-zh.js';
import type {
  SafetyAction,
  SafetyInput,
  SafetyReason,
  SafetyReasonCode,
  SafetyVerdict,
} from './safety-schema.js';
import { quoteAsData } from './safety-quote.js';

export { quoteAsData } from './safety-quote.js';

/**
 * The one place the gate's thresholds live. `score` is a noisy-OR of the strongest weight per signal code,
 * each times its trust factor and framing factor; at `quote` or above a text passes only as quoted data,
 * at `suppress` or above never. `strong`: a signal this heavy (before trust and framing, after what an
 * override is aimed at) keeps a text that is not the user's own at `quote` or above, however it is framed.
 * `learned`: a text the rules allow, not the user's own, whose learned score (safety-learned.ts) is this high
 * or higher is quoted; the learned signal never suppresses. `learnedDerived` is the same bar for what the
 * agent or the host wrote: its memories speak of "the user" as attacks do, so it needs more. Both bars were
 * chosen by training without each hand-written corpus in turn and scoring it (docs/BENCHMARKS.md, "The
 * learned signal on an author it was not trained on"): the lowest bars at which, on average, at most 7 % of
 * a left-out corpus's look-alikes (2 % of the agent's own notes) and at most 1 % of ordinary conversation it
 * never saw (LoCoMo turns) are quoted.
 */
export const SAFETY_THRESHOLDS = {
  quote: 0.35,
  suppress: 0.65,
  strong: 0.7,
  learned: 0.35,
  learnedDerived: 0.6,
} as const;

/** How much a signal counts from the agent or host (`derived`) and from the user's own words (`own`). */
const TRUST_FACTORS: Record<SignalCode, { derived: number; own: number }> = {
  override: { derived: 0.75, own: 0.15 },
  role_tag: { derived: 0.75, own: 0.45 },
  persona: { derived: 0.7, own: 0.1 },
  directive: { derived: 0.75, own: 0 },
  addressee: { derived: 0.75, own: 0.2 },
  tool_call: { derived: 0.6, own: 0.3 },
  shell: { derived: 0.6, own: 0.3 },
  exfiltration: { derived: 0.75, own: 0.1 },
  authority: { derived: 0.8, own: 0 },
  secrecy: { derived: 0.7, own: 0.1 },
  obfuscation: { derived: 1, own: 0.6 },
  hidden_text: { derived: 0.8, own: 0.3 },
  high_risk_procedure: { derived: 1, own: 1 },
};

/**
 * Framing factors: a quoted attack in a report or warning, one in a report, one in code, one inside a string
 * literal in code, an example quoted by a text that documents a format, an override aimed at a document or a
 * person's message rather than at the model, and one whose aim is unclear ("the instructions in this
 * e-mail", "the previous instructions are void"); the last two lower the weight itself, so that such an
 * override no longer counts as strong.
 */
const FRAMED = {
  quotedReport: 0.4,
  report: 0.5,
  code: 0.6,
  codeString: 0.3,
  example: 0.4,
  elsewhere: 0.35,
  unclear: 0.6,
} as const;

/** An exfiltration whose act is negated counts this much. */
const NEGATED = 0.3;

/** Authority and secrecy next to a high-risk action count this much more. */
const RISKY_ACTION = 1.35;
const LICENSING = new Set<SignalCode>(['authority', 'secrecy']);

const RULES: SafetyRule[] = [
  ...SYNTAX_RULES,
  ...TEMPLATE_RULES,
  ...CODE_RULES,
  ...EN_RULES,
  ...ZH_RULES,
  ...ADDRESSED_RULES,
  ...MODEL_RULES,
  ...ACTION_RULES,
  ...SECRECY_RULES,
  ...OUTPUT_RULES,
  ...STANDING_RULES,
  ...RELAY_RULES,
];
const HIGH_RISK = new RegExp(`${EN_HIGH_RISK}|${ZH_HIGH_RISK}`, 'iu');
const BASE64 = /[A-Za-z0-9+/]{32,}={0,2}/gu;
const DATA_URI = /\bdata:[\w.+-]{1,40}\/[\w.+-]{1,60};base64,$/u;
const DECODE_WORDS = /decode|base64|b64|atob|解码|解密|译码/iu;
const MAX_REASONS = 16;
const NO_FRAMING: Framing = { quoted: [], speech: [], code: [], reporting: [], explaining: false };

interface Finding {
  code: SignalCode;
  weight: number;
  /** Original offsets. */
  span: [number, number];
  /** Normalised offsets, for framing. */
  at: [number, number];
  /** Found by a rule written for code: code framing does not lower it. */
  inCode?: boolean;
  /** An override aimed at the model by construction: what it is aimed at is not asked. */
  atModel?: boolean;
}

export interface ScoreOptions {
  /** Read the learned signal too (default); off, the verdict is the rules' alone. */
  learned?: boolean;
}

export function scoreSafety(input: SafetyInput, options: ScoreOptions = {}): SafetyVerdict {
  const norm = normalizeForSafety(input.text);
  const trust = trustOf(input);
  const findings = [...findSignals(norm), ...obfuscationOf(norm)];
  if (input.kind === 'procedure') {
    const m = HIGH_RISK.exec(norm.text);
    if (m) findings.push(finding(norm, 'high_risk_procedure', 0.45, m.index, m.index + m[0].length));
  }
  // A claimed approval or a secret kept from the user weighs more next to an action with side effects.
  const risky = HIGH_RISK.test(norm.text);
  // Most texts hold no signal at all: their framing is never read, so it is not computed.
  const framing = findings.length > 0 ? framingOf(norm.text) : NO_FRAMING;
  const best = new Map<SignalCode, number>();
  const context = new Set<SafetyReasonCode>();
  let strong = false;
  let spans: [number, number][] | null = null;
  // In a text documenting a format, what lies between its first and last template token is shown, not said.
  const shown = framing.explaining ? tokenRegion(findings) : [];
  for (const f of findings) {
    const [start, end] = f.at;
    if (start >= 0 && f.code === 'override' && !f.atModel) {
      spans ??= sentences(norm.text);
      const sentence = spans.find(([s, e]) => s <= start && start < e) ?? [start, end];
      const aim = aimOf(norm.text, start, end, sentence);
      if (aim !== 'model') {
        f.weight *= FRAMED[aim];
        context.add('elsewhere');
      }
    }
    // A warning against the act ("do not paste passwords into it") is not an order to do it.
    if (f.code === 'exfiltration' && start >= 0 && negatedAct(norm.text, start, end)) f.weight *= NEGATED;
    let factor = trustFactor(f.code, trust) * (risky && LICENSING.has(f.code) ? RISKY_ACTION : 1);
    const quoted = start >= 0 && overlaps(framing.quoted, start, end);
    if (start >= 0 && !f.inCode && inside(framing.code, start, end)) {
      factor *= quoted && inside(framing.quoted, start, end) ? FRAMED.codeString : FRAMED.code;
      context.add('code');
    }
    if (framing.explaining && (quoted || (start >= 0 && inside(shown, start, end)))) {
      factor *= FRAMED.example;
      context.add('example');
    }
    if (start >= 0 && reports(framing, start, end)) {
      factor *= quoted ? FRAMED.quotedReport : FRAMED.report;
      context.add('reported');
    }
    if (f.weight >= SAFETY_THRESHOLDS.strong && trust !== 'own') strong = true;
    best.set(f.code, Math.max(best.get(f.code) ?? 0, Math.min(1, f.weight * factor)));
  }
  let rest = 1;
  for (const w of best.values()) rest *= 1 - w;
  const score = Math.round((1 - rest) * 1000) / 1000;
  if (trust === 'own' && findings.length > 0) context.add('own_words');
  let action = decide(score, trust, strong);
  // The learned signal reads what no rule names; the user's own words are theirs, and it never suppresses.
  const learned =
    trust === 'own' || options.learned === false ? 0 : Math.round(learnedScore(input.text) * 1000) / 1000;
  const bar = trust === 'derived' ? SAFETY_THRESHOLDS.learnedDerived : SAFETY_THRESHOLDS.learned;
  if (action === 'allow' && learned >= bar) {
    action = 'quote';
    context.add('learned');
  }
  const reasons = [...dedupe(findings).slice(0, MAX_REASONS), ...[...context].map((code) => ({ code }))];
  return {
    action,
    score,
    learned,
    reasons,
    ...(action === 'quote' ? { quoted: quoteAsData(input.text) } : {}),
  };
}

const TOKENS = new Set<SignalCode>(['role_tag', 'tool_call']);

function tokenRegion(findings: Finding[]): [number, number][] {
  const tokens = findings.filter((f) => TOKENS.has(f.code) && f.at[0] >= 0);
  if (tokens.length === 0) return [];
  return [[Math.min(...tokens.map((f) => f.at[0])), Math.max(...tokens.map((f) => f.at[1]))]];
}

function decide(score: number, trust: Trust, strong: boolean): SafetyAction {
  // invariant: the user's own words are never suppressed, at most quoted (test: src/inject/safety.test.ts
  // "never suppresses the user’s own words…").
  if (score >= SAFETY_THRESHOLDS.suppress && trust !== 'own') return 'suppress';
  // invariant: a strong signal from anyone but the user is never allowed, however it is framed (test:
  // src/inject/safety.test.ts "quotes a framed attack, never allows it…").
  if (score >= SAFETY_THRESHOLDS.quote || strong) return 'quote';
  return 'allow';
}

function trustFactor(code: SignalCode, trust: Trust): number {
  return trust === 'untrusted' ? 1 : TRUST_FACTORS[code][trust];
}

function* findSignals(norm: Normalized, depth = 0): Generator<Finding> {
  const plain = new Map<SignalCode, number>();
  for (const r of RULES) {
    for (const [s, e] of r.find(norm.text)) {
      plain.set(r.code, Math.max(plain.get(r.code) ?? 0, r.weight));
      yield { ...finding(norm, r.code, r.weight, s, e), inCode: r.inCode, atModel: r.atModel };
    }
  }
  // ROT13, reversed, leetspeak, spaced-out or escaped text is read as what it decodes to; only what the
  // decoding adds counts, and hiding it is a signal of its own.
  for (const d of depth === 0 ? decodings(norm.text) : []) {
    const added = [...findSignals(normalizeForSafety(d.text), depth + 1)].filter(
      (h) => h.weight > (plain.get(h.code) ?? 0),
    );
    for (const h of added) yield finding(norm, h.code, h.weight, ...d.at);
    if (added.length > 0) yield finding(norm, 'obfuscation', 0.6, ...d.at);
  }
  // Base64 that decodes to readable text is read like the text it hides.
  for (const m of norm.text.matchAll(BASE64)) {
    // A data URI's payload is an image or a file, not a message.
    const decoded = depth === 0 && !DATA_URI.test(norm.text.slice(0, m.index)) ? readable(m[0]) : null;
    if (decoded === null) continue;
    const hidden = [...findSignals(normalizeForSafety(decoded), depth + 1)];
    const at: [number, number] = [m.index, m.index + m[0].length];
    for (const h of hidden) yield finding(norm, h.code, h.weight, ...at);
    if (hidden.length > 0 || DECODE_WORDS.test(norm.text)) {
      yield finding(norm, 'obfuscation', hidden.length > 0 ? 0.6 : 0.4, ...at);
    }
  }
}

function* obfuscationOf(norm: Normalized): Generator<Finding> {
  const one = (at: number): [number, number] => [at, at + 1];
  if (norm.invisible.length > 0) {
    yield raw('obfuscation', norm.invisible.length >= 3 ? 0.6 : 0.45, one(norm.invisible[0] ?? 0));
  }
  if (norm.tags.length > 0) yield raw('obfuscation', 0.9, one(norm.tags[0] ?? 0));
  if (norm.bidi.length > 0) yield raw('obfuscation', 0.4, one(norm.bidi[0] ?? 0));
  const first = norm.mixed[0];
  if (first) yield raw('obfuscation', norm.mixed.length >= 2 ? 0.65 : 0.55, first);
}

/** An original-span finding (invisible characters have no normalised offset): framing cannot lower it. */
const raw = (code: SignalCode, weight: number, span: [number, number]): Finding => ({
  code,
  weight,
  span,
  at: [-1, -1],
});

function finding(norm: Normalized, code: SignalCode, weight: number, start: number, end: number): Finding {
  const from = norm.origin[start] ?? 0;
  const to = end > start ? (norm.origin[end - 1] ?? from) + 1 : from;
  return { code, weight, span: [from, to], at: [start, end] };
}

function readable(blob: string): string | null {
  const text = Buffer.from(blob, 'base64').toString('utf8');
  if (text.includes('\uFFFD')) return null;
  const printable = text.match(/[\p{L}\p{N}\p{P}\p{Zs}]/gu)?.length ?? 0;
  return printable >= 0.9 * [...text].length ? text : null;
}

function dedupe(findings: Finding[]): SafetyReason[] {
  const seen = new Set<string>();
  const out: SafetyReason[] = [];
  for (const f of [...findings].sort((a, b) => a.span[0] - b.span[0] || b.weight - a.weight)) {
    const key = `${f.code}:${f.span[0]}:${f.span[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code: f.code, span: f.span });
  }
  return out;
}
